package io.lanemq.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.Deduplication;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlatformConfigParserTest {
    private static final String VALID = """
            clusters:
              cluster-a:
                idc: idc-a
                nameServer: "127.0.0.1:9876"
                properties:
                  rocketmq.heartbeatBrokerIntervalMs: "1000"
              cluster-b: { idc: idc-b, nameServer: "127.0.0.1:9877;127.0.0.2:9877" }
            producer:
              sendTimeoutMs: 1500
            consumer:
              threads: 4
            topics:
              order-paid:
                routes:
                  - { cluster: cluster-a, physicalTopic: order_paid, weight: 70 }
                  - { cluster: cluster-b, physicalTopic: order_paid_b, weight: 30 }
                consumerGroups:
                  billing: {}
                  audit: { threads: 2, maxDeliveryAttempts: 3, startFrom: EARLIEST }
            """;

    private static final String PROXY_SECTION = """
            proxy:
              endpoints: ["proxy-1:7443", "10.0.0.7:7443"]
              caCertificate: /etc/lanemq/proxy-ca.pem
            """;

    private final PlatformConfigParser parser = new PlatformConfigParser();

    @Test
    void readsClustersTopicsAndMergesConsumerDefaults() throws Exception {
        PlatformConfig config = parser.parse(VALID, "test.yaml");

        assertThat(config.clusters()).containsOnlyKeys("cluster-a", "cluster-b");
        assertThat(config.cluster("cluster-a").properties()).containsEntry("rocketmq.heartbeatBrokerIntervalMs", "1000");
        assertThat(config.producer().sendTimeout()).isEqualTo(Duration.ofMillis(1500));
        assertThat(config.producer().maxBodyBytes()).isEqualTo(ProducerConfig.DEFAULTS.maxBodyBytes());
        LogicTopicConfig topic = config.topic("order-paid").orElseThrow();
        assertThat(topic.routes()).containsExactly(
                new TopicRoute("cluster-a", "order_paid", 70), new TopicRoute("cluster-b", "order_paid_b", 30));
        assertThat(topic.consumerGroups().get("billing"))
                .isEqualTo(new ConsumerConfig(4, ConsumerConfig.DEFAULTS.maxDeliveryAttempts(), StartPosition.LATEST));
        assertThat(topic.consumerGroups().get("audit")).isEqualTo(new ConsumerConfig(2, 3, StartPosition.EARLIEST));
        assertThat(config.topicOf("cluster-b", "order_paid_b")).contains(topic);
    }

    @Test
    void readsModeBatchSizeAndRetries() throws Exception {
        String text = VALID.replace("sendTimeoutMs: 1500", "sendTimeoutMs: 1500\n  retries: 0")
                .replace("audit: { threads: 2, maxDeliveryAttempts: 3, startFrom: EARLIEST }",
                        "audit: { threads: 2, maxDeliveryAttempts: 3, startFrom: EARLIEST, batchSize: 64, mode: PROXY }")
                + PROXY_SECTION;

        PlatformConfig config = parser.parse(text, "test.yaml");

        assertThat(config.producer().retries()).isZero();
        assertThat(parser.parse(VALID.replace("    consumerGroups:", "    rateLimitPerSecond: 500\n    consumerGroups:"), "t.yaml")
                .topic("order-paid").orElseThrow().rateLimitPerSecond()).isEqualTo(500);
        assertThatThrownBy(() -> parser.parse(VALID.replace("    consumerGroups:", "    rateLimitPerSecond: -2\n    consumerGroups:"), "t.yaml"))
                .hasMessageContaining("topics.order-paid.rateLimitPerSecond (line 17): must be >= 0");
        assertThat(config.topic("order-paid").orElseThrow().consumerGroups().get("audit"))
                .isEqualTo(new ConsumerConfig(2, 3, StartPosition.EARLIEST, 64, ConsumptionMode.PROXY));
        assertThat(config.topic("order-paid").orElseThrow().consumerGroups().get("billing").mode()).isEqualTo(ConsumptionMode.DIRECT);
        ConsumerConfig limited = parser.parse(VALID.replace("billing: {}", "billing: { maxInFlight: 500, maxPerSecond: 2000 }"),
                "t.yaml").topic("order-paid").orElseThrow().consumerGroups().get("billing");
        assertThat(limited.maxInFlight()).isEqualTo(500);
        assertThat(limited.maxPerSecond()).isEqualTo(2000);
        assertThatThrownBy(() -> parser.parse(VALID.replace("billing: {}", "billing: { maxInFlight: -1, maxPerSecond: -5 }"),
                "t.yaml"))
                .isInstanceOfSatisfying(InvalidPlatformConfigException.class, e -> assertThat(e.problems())
                        .extracting(ConfigProblem::key)
                        .containsExactlyInAnyOrder("topics.order-paid.consumerGroups.billing.maxInFlight",
                                "topics.order-paid.consumerGroups.billing.maxPerSecond"));
    }

    @Test
    void aGroupsDeduplicationIsReadOffByDefaultAndAWindowOutOfBoundsIsRefusedNamingTheKey() throws Exception {
        ConsumerConfig plain = parser.parse(VALID, "t.yaml").topic("order-paid").orElseThrow().consumerGroups().get("billing");
        ConsumerConfig deduplicating = parser.parse(VALID.replace("billing: {}",
                "billing: { deduplicateWindowMs: 600000, deduplicateBy: FIRST_KEY }"), "t.yaml")
                .topic("order-paid").orElseThrow().consumerGroups().get("billing");

        assertThat(plain.deduplication()).as("off unless the group asks").isEmpty();
        assertThat(deduplicating.deduplication()).contains(Deduplication.byFirstKey(Duration.ofMinutes(10)));
        assertThatThrownBy(() -> parser.parse(VALID.replace("billing: {}", "billing: { deduplicateWindowMs: 172800000 }"),
                "t.yaml")).isInstanceOfSatisfying(InvalidPlatformConfigException.class, e -> assertThat(e.problems())
                        .extracting(ConfigProblem::key).containsExactly("topics.order-paid.consumerGroups.billing.deduplicateWindowMs"));
        assertThatThrownBy(() -> parser.parse(VALID.replace("billing: {}", "billing: { deduplicateBy: BODY }"), "t.yaml"))
                .hasMessageContaining("deduplicateBy");
    }

    @Test
    void failoverAfterIsReadAndMayNotExceedTheSendTimeout() throws Exception {
        PlatformConfig config = parser.parse(VALID.replace("sendTimeoutMs: 1500", "sendTimeoutMs: 1500\n  failoverAfterMs: 400"),
                "test.yaml");
        assertThat(config.producer().failoverAfter()).isEqualTo(Duration.ofMillis(400));
        assertThat(parser.parse(VALID, "test.yaml").producer().failoverAfter()).isEqualTo(ProducerConfig.DEFAULT_FAILOVER_AFTER);

        assertThatThrownBy(() -> parser.parse(VALID.replace("sendTimeoutMs: 1500", "sendTimeoutMs: 1500\n  failoverAfterMs: 2000"),
                "test.yaml"))
                .isInstanceOfSatisfying(InvalidPlatformConfigException.class, e -> assertThat(e.problems())
                        .extracting(ConfigProblem::key).containsExactly("producer.failoverAfterMs"))
                .hasMessageContaining("at most sendTimeoutMs (1500), was 2000");
    }

    @Test
    void producerGatheringIsReadAndATopicOverridesWhatItNames() throws Exception {
        PlatformConfig config = parser.parse(VALID.replace("sendTimeoutMs: 1500", """
                sendTimeoutMs: 1500
                  maxHeldBytes: 8388608
                  batch: { maxMessages: 32, maxInFlight: 1 }""").replace("    consumerGroups:",
                "    batch: { maxMessages: 1 }\n    consumerGroups:"), "test.yaml");

        assertThat(config.producer().batch()).isEqualTo(new BatchConfig(32, BatchConfig.DEFAULTS.maxBytes(), 1, Duration.ZERO));
        assertThat(config.producer().maxHeldBytes()).isEqualTo(8 * 1024 * 1024);
        assertThat(config.topic("order-paid").orElseThrow().batchOr(config.producer()))
                .as("the topic's maxMessages over the producer's other settings")
                .isEqualTo(new BatchConfig(1, BatchConfig.DEFAULTS.maxBytes(), 1, Duration.ZERO));
        assertThat(parser.parse(VALID, "test.yaml").producer().batch()).isEqualTo(BatchConfig.DEFAULTS);
    }

    @Test
    void badGatheringSettingsAreNamedWithKeyAndLine() {
        String text = VALID.replace("sendTimeoutMs: 1500", """
                sendTimeoutMs: 1500
                  maxHeldBytes: 1000
                  batch: { maxMessages: 0, maxBytes: 8388608, maxInFlight: 0, lingerMs: 5000 }""")
                .replace("    consumerGroups:", "    batch: { maxMessages: 5000 }\n    consumerGroups:");

        assertThatThrownBy(() -> parser.parse(text, "test.yaml"))
                .isInstanceOfSatisfying(InvalidPlatformConfigException.class, e -> assertThat(e.problems())
                        .extracting(ConfigProblem::key).containsExactlyInAnyOrder("producer.maxHeldBytes",
                                "producer.batch.maxMessages", "producer.batch.maxBytes", "producer.batch.maxInFlight",
                                "producer.batch.lingerMs", "topics.order-paid.batch.maxMessages"))
                .hasMessageContaining("producer.batch.maxBytes (line 11): must be between 1 and " + BatchConfig.MAX_BYTES_LIMIT);
    }

    @Test
    void badModeBatchSizeAndRetriesAreNamed() {
        String text = VALID.replace("sendTimeoutMs: 1500", "sendTimeoutMs: 1500\n  retries: 99")
                .replace("billing: {}", "billing: { batchSize: 0 }");

        assertThatThrownBy(() -> parser.parse(text, "test.yaml"))
                .isInstanceOfSatisfying(InvalidPlatformConfigException.class, e -> assertThat(e.problems())
                        .extracting(ConfigProblem::key)
                        .containsExactlyInAnyOrder("producer.retries", "topics.order-paid.consumerGroups.billing.batchSize"));
        assertThatThrownBy(() -> parser.parse(VALID.replace("billing: {}", "billing: { mode: SIDEWAYS }"), "test.yaml"))
                .isInstanceOf(InvalidPlatformConfigException.class)
                .hasMessageContaining("topics.order-paid.consumerGroups.billing.mode");
    }

    @Test
    void readsTheDelaySectionAndDefaultsWhatIsLeftOut() throws Exception {
        assertThat(parser.parse(VALID, "test.yaml").delay()).isEqualTo(DelayConfig.DEFAULTS);

        PlatformConfig config = parser.parse(VALID + "delay: { internalTopic: DELAY_X, maxDelayMs: 60000 }\n", "test.yaml");

        assertThat(config.delay()).isEqualTo(new DelayConfig("DELAY_X", DelayConfig.DEFAULTS.serverGroup(),
                Duration.ofMinutes(1), DelayConfig.DEFAULTS.cancelTimeout()));
    }

    @Test
    void badDelaySettingsAreNamedWithKeyAndLine() {
        String text = VALID + "delay:\n  internalTopic: 'no spaces'\n  maxDelayMs: 0\n  cancelTimeoutMs: -1\n";

        assertThatThrownBy(() -> parser.parse(text, "test.yaml"))
                .isInstanceOfSatisfying(InvalidPlatformConfigException.class, e -> assertThat(e.problems())
                        .extracting(ConfigProblem::key)
                        .containsExactlyInAnyOrder("delay.internalTopic", "delay.maxDelayMs", "delay.cancelTimeoutMs"))
                .hasMessageContaining("delay.maxDelayMs (line 22): must be > 0, was 0");
    }

    @Test
    void readsTheProxySectionAndDefaultsToNoProxy() throws Exception {
        assertThat(parser.parse(VALID, "test.yaml").proxy()).isEqualTo(ConsumerProxyConfig.NONE);

        PlatformConfig config = parser.parse(VALID + PROXY_SECTION, "test.yaml");

        assertThat(config.proxy()).isEqualTo(new ConsumerProxyConfig(List.of("proxy-1:7443", "10.0.0.7:7443"),
                Path.of("/etc/lanemq/proxy-ca.pem")));
    }

    @Test
    void aGroupInProxyModeNeedsProxyEndpointsAndACaCertificate() {
        String proxied = VALID.replace("billing: {}", "billing: { mode: PROXY }");

        assertThatThrownBy(() -> parser.parse(proxied, "test.yaml"))
                .isInstanceOfSatisfying(InvalidPlatformConfigException.class, e -> assertThat(e.problems())
                        .extracting(ConfigProblem::key)
                        .containsExactlyInAnyOrder("proxy.endpoints", "proxy.caCertificate"))
                .hasMessageContaining("TLS is mandatory")
                .hasMessageContaining("[billing@order-paid]");
    }

    @Test
    void badProxyEndpointsAreNamedWithKeyAndLine() {
        String text = VALID + "proxy:\n  endpoints: [\"proxy-1:7443\", \"no-port\", \"a:1;b:2\"]\n  caCertificate: /ca.pem\n";

        assertThatThrownBy(() -> parser.parse(text, "test.yaml"))
                .isInstanceOfSatisfying(InvalidPlatformConfigException.class, e -> assertThat(e.problems())
                        .extracting(ConfigProblem::key)
                        .containsExactlyInAnyOrder("proxy.endpoints[1]", "proxy.endpoints[2]"))
                .hasMessageContaining("proxy.endpoints[1] (line 21): must be host:port, was 'no-port'");
    }

    @Test
    void readsJson() throws Exception {
        String json = """
                {"clusters": {"c1": {"idc": "idc-a", "nameServer": "127.0.0.1:9876"}},
                 "topics": {"t": {"routes": [{"cluster": "c1", "physicalTopic": "t", "weight": 1}]}}}
                """;
        assertThat(parser.parse(json, "test.json").topic("t")).isPresent();
    }

    @Test
    void unknownClusterIsNamedWithItsKeyAndLine() {
        String text = VALID.replace("{ cluster: cluster-b, physicalTopic: order_paid_b", "{ cluster: cluster-c, physicalTopic: order_paid_b");

        assertThatThrownBy(() -> parser.parse(text, "test.yaml"))
                .isInstanceOf(InvalidPlatformConfigException.class)
                .hasMessageContaining("test.yaml")
                .hasMessageContaining("topics.order-paid.routes[1].cluster (line 16): unknown cluster 'cluster-c'");
    }

    @Test
    void weightsSummingToZeroAndNegativeSizesAreAllReported() {
        String text = VALID.replace("weight: 70", "weight: 0").replace("weight: 30", "weight: 0")
                .replace("sendTimeoutMs: 1500", "sendTimeoutMs: 1500\n  maxBodyBytes: -1");

        assertThatThrownBy(() -> parser.parse(text, "test.yaml"))
                .isInstanceOfSatisfying(InvalidPlatformConfigException.class, e -> assertThat(e.problems())
                        .extracting(ConfigProblem::key)
                        .containsExactlyInAnyOrder("producer.maxBodyBytes", "topics.order-paid.routes"))
                .hasMessageContaining("weights sum to zero")
                .hasMessageContaining("producer.maxBodyBytes (line 10): must be between 1 and");
    }

    @Test
    void malformedYamlNamesTheLine() {
        String text = "clusters:\n  cluster-a: { idc: idc-a, nameServer: \"127.0.0.1:9876\"\ntopics: {}\n";

        assertThatThrownBy(() -> parser.parse(text, "broken.yaml"))
                .isInstanceOf(InvalidPlatformConfigException.class)
                .hasMessageContaining("broken.yaml")
                .hasMessageMatching("(?s).*\\(line [23]\\): malformed document.*");
    }

    @Test
    void wrongTypeNamesTheKeyAndLine() {
        String text = VALID.replace("weight: 30", "weight: thirty");

        assertThatThrownBy(() -> parser.parse(text, "test.yaml"))
                .isInstanceOf(InvalidPlatformConfigException.class)
                .hasMessageContaining("topics.order-paid.routes[1].weight (line 16)");
    }

    @Test
    void unknownKeyIsRejected() {
        String text = VALID.replace("  sendTimeoutMs: 1500", "  sendTimeoutMs: 1500\n  sendTimoutMs: 100");

        assertThatThrownBy(() -> parser.parse(text, "test.yaml"))
                .isInstanceOf(InvalidPlatformConfigException.class)
                .hasMessageContaining("producer.sendTimoutMs (line 10)")
                .hasMessageContaining("Unrecognized field \"sendTimoutMs\"");
    }

    @Test
    void duplicateKeyIsRejected() {
        String text = VALID.replace("  threads: 4", "  threads: 4\n  threads: 5");

        assertThatThrownBy(() -> parser.parse(text, "test.yaml"))
                .isInstanceOf(InvalidPlatformConfigException.class)
                .hasMessageContaining("Duplicate field 'threads'");
    }

    @Test
    void emptySectionsAreReadAsEmptyNotAsErrorsOfTheParser() {
        assertThatThrownBy(() -> parser.parse("clusters:\n  c1:\ntopics:\n", "sparse.yaml"))
                .isInstanceOfSatisfying(InvalidPlatformConfigException.class, e -> assertThat(e.problems())
                        .extracting(ConfigProblem::key)
                        .containsExactlyInAnyOrder("clusters.c1.idc", "clusters.c1.nameServer"));
    }

    @Test
    void emptyDocumentIsRejected() {
        assertThatThrownBy(() -> parser.parse("  \n", "empty.yaml"))
                .isInstanceOf(InvalidPlatformConfigException.class)
                .hasMessageContaining("the document is empty");
    }

    @Test
    void badNameServerAndMissingIdcAreNamed() {
        String text = VALID.replace("idc: idc-b, nameServer: \"127.0.0.1:9877;127.0.0.2:9877\"", "nameServer: \"localhost\"");

        assertThatThrownBy(() -> parser.parse(text, "test.yaml"))
                .isInstanceOfSatisfying(InvalidPlatformConfigException.class, e -> assertThat(e.problems())
                        .extracting(ConfigProblem::key)
                        .containsExactlyInAnyOrder("clusters.cluster-b.idc", "clusters.cluster-b.nameServer"));
    }
}
