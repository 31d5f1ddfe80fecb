package io.lanemq.dialtest;

import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.RocketMqStack;
import java.nio.file.Path;

/**
 * The platform configuration of the embedded default, on the embedded stack: what an application of that stack would
 * read. Its delay section names an internal topic of its own, its logic topic {@link #DELAY_LOGIC_TOPIC} routes to the
 * probe topic on both clusters (where the delay server delivers), and its logic topic {@link #LOGIC_TOPIC}, on a
 * physical topic of its own on both clusters with the weights 50/50 and the consumer group {@link #LOGIC_GROUP}, is
 * what the logic-topic probes go through. It publishes the configuration-propagation probe's changes
 * ({@link #CONFIG_PROBE_KEY}) to its file.
 */
final class EmbeddedPlatform implements ConfigPublisher, AutoCloseable {
    /** The logic topic delay-server probes are delivered to. */
    static final String DELAY_LOGIC_TOPIC = "lanemq-dialtest-delayed";
    /** The logic topic probed through the SDK. */
    static final String LOGIC_TOPIC = "lanemq-dialtest-logic";
    /** Its consumer group. */
    static final String LOGIC_GROUP = "lanemq-dialtest-logic";
    /**
     * The configuration-propagation probe's key: a logic topic on a physical topic of its own, which nothing sends to or
     * consumes, so changing its rate limit is harmless.
     */
    static final String CONFIG_PROBE_KEY = "lanemq-dialtest-config-probe";
    private static final int LOGIC_QUEUES = 4;

    private final LocalPlatform platform;
    private final Path configFile;

    private EmbeddedPlatform(LocalPlatform platform) {
        this.platform = platform;
        this.configFile = platform.writeConfig();
    }

    /** Creates the topics on {@code stack} and writes the configuration; delay-server probes come back on {@code probeTopic}. */
    static EmbeddedPlatform on(RocketMqStack stack, String probeTopic) {
        return new EmbeddedPlatform(LocalPlatform.on(stack).enableDelay()
            .routeTopic(DELAY_LOGIC_TOPIC, probeTopic, 50, 50)
            .addTopic(LOGIC_TOPIC, LOGIC_QUEUES, 50, 50, LOGIC_GROUP)
            .addTopic(CONFIG_PROBE_KEY, 1, 50, 50));
    }

    @Override
    public String source() {
        return "file";
    }

    /** Rewrites the configuration file (by a rename) with the new rate limit; the clients watching it reload. */
    @Override
    public void publish(String key, int marker) {
        platform.rateLimit(key, marker).writeConfig();
    }

    LocalPlatform platform() {
        return platform;
    }

    /** The configuration file, as an application's {@code configLocation} names it. */
    String configLocation() {
        return "file:" + configFile;
    }

    /** Deletes the configuration file (the stack is its owner's). */
    @Override
    public void close() {
        platform.close();
    }
}
