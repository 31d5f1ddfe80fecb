package io.lanemq.dialtest;

import io.lanemq.api.MessagingException;
import io.lanemq.delay.server.DelayServer;
import io.lanemq.delay.server.DelayServerOptions;

/**
 * The embedded default's delay server: in this process, on the {@link EmbeddedPlatform}'s configuration (whose delay
 * section names an internal topic of its own and whose {@link EmbeddedPlatform#DELAY_LOGIC_TOPIC} routes to the probe
 * topic on both clusters), with its store in the stack's directory.
 */
final class EmbeddedDelayServer implements AutoCloseable {

    private final DelayServer server;
    private final DialTestOptions.DelayServerTarget target;

    private EmbeddedDelayServer(DelayServer server, DialTestOptions.DelayServerTarget target) {
        this.server = server;
        this.target = target;
    }

    /** Starts one on {@code platform}'s configuration. */
    static EmbeddedDelayServer start(EmbeddedPlatform platform) throws MessagingException {
        DelayServer server = DelayServer.start(DelayServerOptions.builder(platform.configLocation(),
                platform.platform().stack().directory().resolve("delay-server-store")).metricsPort(-1).build());
        return new EmbeddedDelayServer(server, new DialTestOptions.DelayServerTarget(
            platform.platform().delaySettings().internalTopic(), EmbeddedPlatform.DELAY_LOGIC_TOPIC));
    }

    DialTestOptions.DelayServerTarget target() {
        return target;
    }

    @Override
    public void close() {
        server.close();
    }
}
