package io.lanemq.config;

import io.lanemq.api.UnknownTopicException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One immutable snapshot of the platform configuration: clusters, logic topics and the settings
 * producers and consumers follow. A {@link Builder} validates the whole snapshot on
 * {@link Builder#build()}, so an instance is always consistent (every route names a known
 * cluster, every logic topic has a positive total weight). A reload replaces the snapshot as a
 * whole; nothing mutates one.
 */
public final class PlatformConfig {
    private final Optional<String> binding;
    private final Map<String, ClusterConfig> clusters;
    private final Map<String, LogicTopicConfig> topics;
    private final ProducerConfig producer;
    private final ConsumerConfig consumerDefaults;
    private final DelayConfig delay;
    private final ConsumerProxyConfig proxy;
    private final StressTestConfig stressTest;
    private final String consumerGroupSuffix;
    private final Optional<ConfigDocument> document;

    private PlatformConfig(Builder builder) {
        this.binding = Optional.ofNullable(builder.binding);
        this.clusters = Map.copyOf(builder.clusters);
        this.topics = Map.copyOf(builder.topics);
        this.producer = builder.producer;
        this.consumerDefaults = builder.consumerDefaults;
        this.delay = builder.delay;
        this.proxy = builder.proxy;
        this.stressTest = builder.stressTest;
        this.consumerGroupSuffix = builder.consumerGroupSuffix;
        this.document = Optional.empty();
    }

    private PlatformConfig(PlatformConfig config, ConfigDocument document) {
        this.binding = config.binding;
        this.clusters = config.clusters;
        this.topics = config.topics;
        this.producer = config.producer;
        this.consumerDefaults = config.consumerDefaults;
        this.delay = config.delay;
        this.proxy = config.proxy;
        this.stressTest = config.stressTest;
        this.consumerGroupSuffix = config.consumerGroupSuffix;
        this.document = Optional.of(document);
    }

    /**
     * The document this snapshot was read from, with its source and revision; empty for a configuration built in
     * code. A configuration source attaches it (see {@link ConfigSource#applied}).
     */
    public Optional<ConfigDocument> document() {
        return document;
    }

    /** This configuration, read from {@code document}. */
    public PlatformConfig withDocument(ConfigDocument document) {
        return new PlatformConfig(this, Objects.requireNonNull(document, "document"));
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The binding to use, when the configuration names one. */
    public Optional<String> binding() {
        return binding;
    }

    public Map<String, ClusterConfig> clusters() {
        return clusters;
    }

    public ClusterConfig cluster(String name) {
        ClusterConfig cluster = clusters.get(name);
        if (cluster == null) {
            throw new IllegalArgumentException("no cluster '" + name + "' in this configuration");
        }
        return cluster;
    }

    public Map<String, LogicTopicConfig> topics() {
        return topics;
    }

    public Optional<LogicTopicConfig> topic(String logicTopic) {
        return Optional.ofNullable(topics.get(logicTopic));
    }

    /**
     * The logic topic, checked to declare {@code consumerGroup}: what a consumer, a seek or a dead-letter replay of the
     * group needs before anything else.
     *
     * @throws UnknownTopicException the topic is not configured, or does not declare the group (the message lists what is)
     */
    public LogicTopicConfig consumedTopic(String logicTopic, String consumerGroup) throws UnknownTopicException {
        LogicTopicConfig topic = topic(logicTopic).orElseThrow(() -> new UnknownTopicException(
                "unknown logic topic; the platform configuration has " + topics.keySet(), logicTopic));
        if (!topic.consumerGroups().containsKey(consumerGroup)) {
            throw new UnknownTopicException("consumer group '" + consumerGroup + "' is not declared for this logic topic; declared: "
                    + topic.consumerGroups().keySet(), logicTopic);
        }
        return topic;
    }

    /** The logic topic routed to {@code physicalTopic} on {@code cluster}, if any; a shadow topic counts as its logic topic's. */
    public Optional<LogicTopicConfig> topicOf(String cluster, String physicalTopic) {
        return topics.values().stream()
                .filter(t -> t.routes().stream().anyMatch(r -> r.cluster().equals(cluster) && (r.physicalTopic().equals(physicalTopic)
                        || t.stressTest() && stressTest.shadowTopicOf(r).equals(physicalTopic))))
                .findFirst();
    }

    public ProducerConfig producer() {
        return producer;
    }

    /** Appended to every consumer group's name on the brokers (see {@link #physicalGroup}); empty by default. */
    public String consumerGroupSuffix() {
        return consumerGroupSuffix;
    }

    /**
     * The consumer group {@code group} (as code and the configuration name it) is on the brokers. Two environments on
     * one cluster must not share a group there: RocketMQ would split one group's queues between their consumers,
     * and each would read only some of its own topic. An environment's suffix keeps the code's names unchanged.
     */
    public String physicalGroup(String group) {
        return group + consumerGroupSuffix;
    }

    public ConsumerConfig consumerDefaults() {
        return consumerDefaults;
    }

    /** Where delayed messages go and how far ahead they may be due. */
    public DelayConfig delay() {
        return delay;
    }

    /** How consumer groups in PROXY mode reach the consumer proxy ({@link ConsumerProxyConfig#NONE} when none is configured). */
    public ConsumerProxyConfig proxy() {
        return proxy;
    }

    /** Where stress-test traffic of the logic topics that take it goes. */
    public StressTestConfig stressTest() {
        return stressTest;
    }

    /** The shadow physical topic of {@code route} under this snapshot's {@link StressTestConfig}. */
    public String shadowTopic(TopicRoute route) {
        return stressTest.shadowTopicOf(route);
    }

    /** Collects a snapshot; {@link #build()} validates it as a whole. Not thread-safe. */
    public static final class Builder {
        private String binding;
        private final Map<String, ClusterConfig> clusters = new LinkedHashMap<>();
        private final Map<String, LogicTopicConfig> topics = new LinkedHashMap<>();
        private ProducerConfig producer = ProducerConfig.DEFAULTS;
        private ConsumerConfig consumerDefaults = ConsumerConfig.DEFAULTS;
        private DelayConfig delay = DelayConfig.DEFAULTS;
        private ConsumerProxyConfig proxy = ConsumerProxyConfig.NONE;
        private StressTestConfig stressTest = StressTestConfig.DEFAULTS;
        private String consumerGroupSuffix = "";

        private Builder() {
        }

        public Builder binding(String binding) {
            this.binding = binding;
            return this;
        }

        public Builder cluster(ClusterConfig cluster) {
            clusters.put(cluster.name(), cluster);
            return this;
        }

        public Builder topic(LogicTopicConfig topic) {
            topics.put(topic.name(), topic);
            return this;
        }

        public Builder producer(ProducerConfig producer) {
            this.producer = producer;
            return this;
        }

        public Builder consumerDefaults(ConsumerConfig consumerDefaults) {
            this.consumerDefaults = consumerDefaults;
            return this;
        }

        public Builder delay(DelayConfig delay) {
            this.delay = delay;
            return this;
        }

        public Builder proxy(ConsumerProxyConfig proxy) {
            this.proxy = proxy;
            return this;
        }

        public Builder stressTest(StressTestConfig stressTest) {
            this.stressTest = stressTest;
            return this;
        }

        public Builder consumerGroupSuffix(String suffix) {
            this.consumerGroupSuffix = suffix == null ? "" : suffix;
            return this;
        }

        /**
         * Validates and returns the snapshot.
         *
         * @throws InvalidPlatformConfigException listing every problem found, not just the first
         */
        public PlatformConfig build() throws InvalidPlatformConfigException {
            return build("code");
        }

        /** As {@link #build()}, naming {@code source} (a file, an etcd key) in the error. */
        public PlatformConfig build(String source) throws InvalidPlatformConfigException {
            List<ConfigProblem> problems = new PlatformConfigValidator(this).problems();
            if (!problems.isEmpty()) {
                throw new InvalidPlatformConfigException(source, problems);
            }
            return new PlatformConfig(this);
        }

        Map<String, ClusterConfig> clusters() {
            return clusters;
        }

        Map<String, LogicTopicConfig> topics() {
            return topics;
        }

        ProducerConfig producer() {
            return producer;
        }

        ConsumerConfig consumerDefaults() {
            return consumerDefaults;
        }

        String binding() {
            return binding;
        }

        DelayConfig delay() {
            return delay;
        }

        ConsumerProxyConfig proxy() {
            return proxy;
        }

        StressTestConfig stressTest() {
            return stressTest;
        }

        String consumerGroupSuffix() {
            return consumerGroupSuffix;
        }
    }
}
