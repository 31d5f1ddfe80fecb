package io.lanemq.localstack;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.MessagingException;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.ConsumptionMode;
import io.lanemq.config.DelayConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigWriter;
import io.lanemq.config.BatchConfig;
import io.lanemq.config.ProducerConfig;
import io.lanemq.config.ConsumerProxyConfig;
import io.lanemq.config.StartPosition;
import io.lanemq.config.StressTestConfig;
import io.lanemq.config.TopicRoute;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.StackSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * A platform on a local dual-IDC RocketMQ stack: logic topics created on both clusters, and a
 * platform configuration file describing them, which a {@link MessagingClient} reads like any
 * application would. Physical topics get a suffix unique to this platform, so several platforms
 * can share one stack (as integration tests do) without seeing each other's messages.
 * Consumer groups start from the earliest offset, so nothing sent before subscribing is missed.
 *
 * <pre>{@code
 * try (LocalPlatform platform = LocalPlatform.start()) {
 *     platform.addTopic("orders", 8, 50, 50, "billing");
 *     try (MessagingClient client = platform.client("my-app")) { ... }
 * }
 * }</pre>
 */
public final class LocalPlatform implements AutoCloseable {
    /** Client tuning for a stack that starts and changes in seconds. */
    /**
     * Clients see route changes, members and committed offsets within a second, so tests do not wait RocketMQ's
     * 30 s: the price is a heartbeat and a route read per client instance every second, which the idle benchmark
     * measures apart (see {@link #productionClientIntervals()}).
     */
    private static final Map<String, String> CLIENT_TUNING = Map.of(
            "rocketmq.heartbeatBrokerIntervalMs", "1000",
            "rocketmq.pollNameServerIntervalMs", "1000",
            "rocketmq.persistConsumerOffsetIntervalMs", "1000");
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final String RUN = Long.toString(System.currentTimeMillis() % 1_000_000, 36);

    private final RocketMqStack stack;
    private final boolean ownsStack;
    private final String suffix = RUN + "-" + SEQUENCE.incrementAndGet();
    private final Map<String, LogicTopicConfig> topics = new LinkedHashMap<>();
    /** Queues of each logic topic's physical topic, for its shadow topic. */
    private final Map<String, Integer> queues = new LinkedHashMap<>();
    /** The logic topics that take stress-test traffic: kept apart, so every change of a topic keeps it. */
    private final Set<String> stressTested = new LinkedHashSet<>();
    private final Path configFile;
    private int maxBodyBytes = ProducerConfig.DEFAULTS.maxBodyBytes();
    private BatchConfig batch = BatchConfig.DEFAULTS;
    private Map<String, String> clientTuning = CLIENT_TUNING;
    private long maxHeldBytes = ProducerConfig.DEFAULT_MAX_HELD_BYTES;
    /** 8 threads in total: 4 per cluster, what every test ran with while threads counted per cluster. */
    private ConsumerConfig groupSettings = new ConsumerConfig(8, 5, StartPosition.EARLIEST);
    private DelayConfig delay = DelayConfig.DEFAULTS;
    private ConsumerProxyConfig proxy = ConsumerProxyConfig.NONE;

    private LocalPlatform(RocketMqStack stack, boolean ownsStack) {
        this.stack = stack;
        this.ownsStack = ownsStack;
        this.configFile = stack.directory().resolve("platform-" + suffix + ".yaml");
    }

    /** Starts a new stack (name server and broker child processes for two IDCs, several seconds) and owns it. */
    public static LocalPlatform start() {
        return new LocalPlatform(RocketMqStack.start(StackSpec.dualIdc()), true);
    }

    /** Starts a new stack of the given shape and owns it. */
    public static LocalPlatform start(StackSpec spec) {
        return new LocalPlatform(RocketMqStack.start(spec), true);
    }

    /** A platform on a stack someone else owns and closes, such as {@link RocketMqStack#shared()}. */
    public static LocalPlatform on(RocketMqStack stack) {
        return new LocalPlatform(stack, false);
    }

    /** A broker-wide name (consumer group, producer group) no other platform of this JVM uses. */
    public static String unique(String base) {
        return base + "-" + RUN + "-" + SEQUENCE.incrementAndGet();
    }

    /**
     * Creates the logic topic's physical topic on both clusters and routes it with the given
     * send weights; {@code groups} are the consumer groups declared for it.
     */
    public synchronized LocalPlatform addTopic(String logicTopic, int queues, int weightA, int weightB, String... groups) {
        String physical = logicTopic.replace('.', '_') + "-" + suffix;
        stack.createTopic(physical, queues);
        this.queues.put(logicTopic, queues);
        Map<String, ConsumerConfig> declared = new LinkedHashMap<>();
        for (String group : groups) {
            declared.put(group, groupSettings);
        }
        topics.put(logicTopic, new LogicTopicConfig(logicTopic, List.of(
                new TopicRoute(idcA().clusterName(), physical, weightA),
                new TopicRoute(idcB().clusterName(), physical, weightB)), declared));
        return this;
    }

    /**
     * Lets a logic topic added by {@link #addTopic} take stress-test traffic: creates its shadow topic
     * (same queues, on both clusters) and sets {@code stressTest: true} on it. Idempotent.
     */
    public synchronized LocalPlatform enableStressTest(String logicTopic) {
        topic(logicTopic);
        if (stressTested.add(logicTopic)) {
            stack.createTopic(shadowTopic(logicTopic), queues.getOrDefault(logicTopic, 4));
        }
        return this;
    }

    /** The shadow topic of a logic topic's physical topic, where its stress-test traffic goes (the same name on both clusters). */
    public synchronized String shadowTopic(String logicTopic) {
        return physicalTopic(logicTopic) + StressTestConfig.DEFAULTS.shadowSuffix();
    }

    /**
     * Creates this platform's own internal delay topic (4 queues) on both clusters and names it,
     * with its own delay-server group, in the configuration: several platforms share one stack in
     * tests, and their delay servers must not read each other's records. Idempotent.
     */
    public synchronized LocalPlatform enableDelay() {
        if (delay == DelayConfig.DEFAULTS) {
            String topic = DelayConfig.DEFAULTS.internalTopic() + "-" + suffix;
            stack.createTopic(topic, 4);
            delay = new DelayConfig(topic, DelayConfig.DEFAULTS.serverGroup() + "-" + suffix,
                    DelayConfig.DEFAULTS.maxDelay(), DelayConfig.DEFAULTS.cancelTimeout());
        }
        return this;
    }

    /** The delay section of this platform's configuration (the defaults until {@link #enableDelay()}). */
    public synchronized DelayConfig delaySettings() {
        return delay;
    }

    /** Names the consumer proxy (call {@link #writeConfig()} to publish the change). */
    public synchronized LocalPlatform proxy(ConsumerProxyConfig proxySettings) {
        this.proxy = proxySettings;
        return this;
    }

    /** Sets how one consumer group of a logic topic consumes (call {@link #writeConfig()} to publish the change). */
    public LocalPlatform consumerMode(String logicTopic, String group, ConsumptionMode mode) {
        return consumerSettings(logicTopic, group, settings -> settings.withMode(mode));
    }

    /** Changes one consumer group's settings of a logic topic (call {@link #writeConfig()} to publish the change). */
    public synchronized LocalPlatform consumerSettings(String logicTopic, String group, UnaryOperator<ConsumerConfig> change) {
        LogicTopicConfig topic = topic(logicTopic);
        ConsumerConfig settings = topic.consumerGroups().get(group);
        if (settings == null) {
            throw new IllegalArgumentException("no consumer group '" + group + "' on logic topic '" + logicTopic + "'");
        }
        Map<String, ConsumerConfig> groups = new LinkedHashMap<>(topic.consumerGroups());
        groups.put(group, change.apply(settings));
        topics.put(logicTopic, new LogicTopicConfig(logicTopic, topic.routes(), groups, topic.rateLimitPerSecond()));
        return this;
    }

    /**
     * Routes a logic topic to a physical topic someone else creates (the same name on both clusters), such as
     * the dial test's probe topic, with the given send weights and no consumer groups.
     */
    public synchronized LocalPlatform routeTopic(String logicTopic, String physicalTopic, int weightA, int weightB) {
        topics.put(logicTopic, new LogicTopicConfig(logicTopic, List.of(
                new TopicRoute(idcA().clusterName(), physicalTopic, weightA),
                new TopicRoute(idcB().clusterName(), physicalTopic, weightB)), Map.of()));
        return this;
    }

    /** Sets a logic topic's rate limit per second (call {@link #writeConfig()} to publish the change). */
    public synchronized LocalPlatform rateLimit(String logicTopic, int perSecond) {
        topics.put(logicTopic, topic(logicTopic).withRateLimit(perSecond));
        return this;
    }

    /** Changes a logic topic's send weights (call {@link #writeConfig()} to publish the change). */
    public synchronized LocalPlatform reweight(String logicTopic, int weightA, int weightB) {
        LogicTopicConfig topic = topic(logicTopic);
        topics.put(logicTopic, new LogicTopicConfig(logicTopic, List.of(
                new TopicRoute(idcA().clusterName(), topic.routes().get(0).physicalTopic(), weightA),
                new TopicRoute(idcB().clusterName(), topic.routes().get(1).physicalTopic(), weightB)), topic.consumerGroups()));
        return this;
    }

    /** Moves a logic topic to a new physical topic (created now) on both clusters, keeping its weights and groups. */
    public synchronized LocalPlatform moveTopic(String logicTopic, int queues) {
        LogicTopicConfig topic = topic(logicTopic);
        String physical = logicTopic.replace('.', '_') + "-" + suffix + "-moved-" + SEQUENCE.incrementAndGet();
        stack.createTopic(physical, queues);
        this.queues.put(logicTopic, queues);
        topics.put(logicTopic, new LogicTopicConfig(logicTopic, List.of(
                new TopicRoute(idcA().clusterName(), physical, topic.routes().get(0).weight()),
                new TopicRoute(idcB().clusterName(), physical, topic.routes().get(1).weight())), topic.consumerGroups()));
        if (stressTested.contains(logicTopic)) {
            stack.createTopic(shadowTopic(logicTopic), queues);
        }
        return this;
    }

    /** Sets the listener threads (per consumer, in total over both clusters) of every consumer group of every logic topic (and of those added later). */
    public synchronized LocalPlatform consumerThreads(int threads) {
        groupSettings = new ConsumerConfig(threads, groupSettings.maxDeliveryAttempts(), groupSettings.startPosition());
        topics.replaceAll((name, topic) -> {
            Map<String, ConsumerConfig> groups = new LinkedHashMap<>();
            topic.consumerGroups().keySet().forEach(group -> groups.put(group, groupSettings));
            return new LogicTopicConfig(name, topic.routes(), groups);
        });
        return this;
    }

    private LogicTopicConfig topic(String logicTopic) {
        LogicTopicConfig topic = topics.get(logicTopic);
        if (topic == null) {
            throw new IllegalArgumentException("no logic topic '" + logicTopic + "' on this platform; added: " + topics.keySet());
        }
        return topic;
    }

    /** The physical topic a logic topic of this platform lives on (the same name on both clusters). */
    public synchronized String physicalTopic(String logicTopic) {
        return topic(logicTopic).routes().get(0).physicalTopic();
    }

    /** The largest body producers accept ({@code producer.maxBodyBytes}). */
    public synchronized LocalPlatform maxBodyBytes(int maxBodyBytes) {
        this.maxBodyBytes = maxBodyBytes;
        return this;
    }

    /** Clients keep RocketMQ's own heartbeat, route and offset intervals (30 s, 30 s, 5 s), as in production. */
    public synchronized LocalPlatform productionClientIntervals() {
        this.clientTuning = Map.of();
        return this;
    }

    /** How producers gather concurrent sends into batch requests ({@code producer.batch}). */
    public synchronized LocalPlatform batch(BatchConfig gathering) {
        this.batch = gathering;
        return this;
    }

    /** The most body bytes a producer holds unanswered ({@code producer.maxHeldBytes}). */
    public synchronized LocalPlatform maxHeldBytes(long bytes) {
        this.maxHeldBytes = bytes;
        return this;
    }

    /** The platform configuration as a YAML document. */
    public synchronized String yaml() {
        PlatformConfig.Builder builder = PlatformConfig.builder()
                .producer(new ProducerConfig(Duration.ofSeconds(5), maxBodyBytes).withBatch(batch).withMaxHeldBytes(maxHeldBytes))
                .consumerDefaults(groupSettings)
                .delay(delay)
                .proxy(proxy);
        for (Idc idc : stack.idcs()) {
            builder.cluster(new ClusterConfig(idc.clusterName(), idc.name(), idc.nameServerAddress(), clientTuning));
        }
        topics.values().forEach(topic -> builder.topic(topic.withStressTest(stressTested.contains(topic.name()))));
        try {
            return new PlatformConfigWriter().toYaml(builder.build(configFile.toString()));
        } catch (MessagingException e) {
            throw new IllegalStateException("the local platform built an invalid configuration", e);
        }
    }

    /**
     * Writes the configuration file and returns its path. The file is replaced by a rename, so a
     * client watching it never reads half a document.
     */
    public Path writeConfig() {
        try {
            Path next = configFile.resolveSibling(configFile.getFileName() + ".next");
            Files.writeString(next, yaml());
            Files.move(next, configFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return configFile;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + configFile, e);
        }
    }

    /** A client of this platform, found through the public API as an application would. */
    public MessagingClient client(String applicationName) throws MessagingException {
        return MessagingClient.create(ClientOptions.builder(applicationName).configLocation(writeConfig().toString()).build());
    }

    public RocketMqStack stack() {
        return stack;
    }

    public Idc idcA() {
        return stack.idcs().get(0);
    }

    public Idc idcB() {
        return stack.idcs().get(1);
    }

    /** Deletes the configuration file; closes the stack when this platform started it. */
    @Override
    public void close() {
        try {
            Files.deleteIfExists(configFile);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + configFile, e);
        } finally {
            if (ownsStack) {
                stack.close();
            }
        }
    }
}
