package io.lanemq.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The configuration file's shape as Jackson reads it: every field optional, nothing validated.
 * {@link PlatformConfigParser} turns it into a validated {@link PlatformConfig}.
 */
final class RawPlatformConfig {
    public String binding;
    public Map<String, RawCluster> clusters = new LinkedHashMap<>();
    public RawProducer producer;
    public RawConsumer consumer;
    public RawDelay delay;
    public RawProxy proxy;
    public RawStressTest stressTest;
    public Map<String, RawTopic> topics = new LinkedHashMap<>();
    public Map<String, RawEnvironment> environments = new LinkedHashMap<>();
    /** Written by {@link PlatformConfigWriter} for a resolved environment; an environment sets it through its own keys. */
    public String consumerGroupSuffix;

    /** How one environment differs from the top level (see {@link Environments#resolve}). */
    static final class RawEnvironment {
        public String physicalTopicSuffix;
        /** Appended to consumer group names on the brokers; when absent, the physicalTopicSuffix. */
        public String consumerGroupSuffix;
        public Map<String, RawCluster> clusters;
        public RawDelay delay;
        public RawProxy proxy;
        public Map<String, RawTopic> topics;
    }

    static final class RawCluster {
        public String idc;
        public String nameServer;
        public Map<String, String> properties = Map.of();
        public Boolean tls;
        public RawCredentials credentials;
    }

    /** Where a cluster's keys live: two environment variables, or a file; never the keys. */
    static final class RawCredentials {
        public String accessKeyEnv;
        public String secretKeyEnv;
        public String file;
    }

    static final class RawProducer {
        public Long sendTimeoutMs;
        public Integer maxBodyBytes;
        public Integer retries;
        public Long failoverAfterMs;
        public RawBatch batch;
        public Long maxHeldBytes;
    }

    static final class RawBatch {
        public Integer maxMessages;
        public Integer maxBytes;
        public Integer maxInFlight;
        public Long lingerMs;
    }

    static final class RawDelay {
        public String internalTopic;
        public String serverGroup;
        public Long maxDelayMs;
        public Long cancelTimeoutMs;
    }

    static final class RawProxy {
        public List<String> endpoints;
        public String caCertificate;
    }

    static final class RawStressTest {
        public String shadowSuffix;
    }

    static final class RawConsumer {
        public Integer threads;
        public Integer maxDeliveryAttempts;
        public StartPosition startFrom;
        public Integer batchSize;
        public ConsumptionMode mode;
        public Integer maxInFlight;
        public Integer maxPerSecond;
    }

    static final class RawTopic {
        public List<RawRoute> routes = List.of();
        public Map<String, RawConsumer> consumerGroups = new LinkedHashMap<>();
        public Integer rateLimitPerSecond;
        public Boolean stressTest;
        public RawBatch batch;
    }

    static final class RawRoute {
        public String cluster;
        public String physicalTopic;
        public Integer weight;
        public String shadowTopic;
    }
}
