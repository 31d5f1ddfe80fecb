package io.lanemq.dialtest;

import io.lanemq.api.MessagingException;
import io.lanemq.delay.server.DelayServer;
import io.lanemq.delay.server.DelayServerOptions;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.RocketMqStack;
import java.nio.file.Path;

/**
 * The embedded default's delay server: a platform configuration on the embedded stack whose delay section names
 * an internal topic of its own and whose logic topic {@link #LOGIC_TOPIC} routes to the probe topic on both
 * clusters, and a delay server in this process reading that topic, with its store in the stack's directory.
 */
final class EmbeddedDelayServer implements AutoCloseable {
    /** The logic topic delay-server probes are delivered to. */
    static final String LOGIC_TOPIC = "lanemq-dialtest-delayed";

    private final DelayServer server;
    private final DialTestOptions.DelayServerTarget target;

    private EmbeddedDelayServer(DelayServer server, DialTestOptions.DelayServerTarget target) {
        this.server = server;
        this.target = target;
    }

    /** Starts one on {@code stack}, delivering to {@code probeTopic}. */
    static EmbeddedDelayServer start(RocketMqStack stack, String probeTopic) throws MessagingException {
        LocalPlatform platform = LocalPlatform.on(stack).enableDelay().routeTopic(LOGIC_TOPIC, probeTopic, 50, 50);
        Path config = platform.writeConfig();
        DelayServer server = DelayServer.start(DelayServerOptions.builder("file:" + config,
                stack.directory().resolve("delay-server-store")).metricsPort(-1).build());
        return new EmbeddedDelayServer(server,
            new DialTestOptions.DelayServerTarget(platform.delaySettings().internalTopic(), LOGIC_TOPIC));
    }

    DialTestOptions.DelayServerTarget target() {
        return target;
    }

    @Override
    public void close() {
        server.close();
    }
}
