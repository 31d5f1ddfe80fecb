package io.lanemq.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which logic topics take stress-test traffic and which shadow topic each route sends it to. */
class StressTestConfigTest {
    private static final String DOCUMENT = """
            clusters:
              cluster-a: { idc: idc-a, nameServer: "127.0.0.1:9876" }
              cluster-b: { idc: idc-b, nameServer: "127.0.0.1:9877" }
            topics:
              order-paid:
                stressTest: true
                routes:
                  - { cluster: cluster-a, physicalTopic: order_paid, weight: 50 }
                  - { cluster: cluster-b, physicalTopic: order_paid_b, weight: 50 }
              refunds:
                routes:
                  - { cluster: cluster-a, physicalTopic: refunds, weight: 1 }
            """;

    private final PlatformConfigParser parser = new PlatformConfigParser();

    @Test
    void aTopicTakesStressTrafficOnlyWhenItSaysSoAndItsShadowsUseTheDefaultSuffix() throws Exception {
        PlatformConfig config = parser.parse(DOCUMENT, "test.yaml");

        assertThat(config.stressTest()).isEqualTo(StressTestConfig.DEFAULTS);
        assertThat(config.stressTest().shadowSuffix()).isEqualTo("_SHADOW");
        LogicTopicConfig orders = config.topic("order-paid").orElseThrow();
        assertThat(orders.stressTest()).isTrue();
        assertThat(orders.routes()).extracting(config::shadowTopic).containsExactly("order_paid_SHADOW", "order_paid_b_SHADOW");
        assertThat(config.topic("refunds").orElseThrow().stressTest()).isFalse();
    }

    @Test
    void readsThePlatformSuffixAndARoutesOwnShadowTopic() throws Exception {
        String text = DOCUMENT.replace("weight: 50 }\n      - { cluster: cluster-b, physicalTopic: order_paid_b, weight: 50 }",
                "weight: 50 }\n      - { cluster: cluster-b, physicalTopic: order_paid_b, weight: 50, shadowTopic: orders_stress_b }")
                + "stressTest: { shadowSuffix: .shadow }\n";

        PlatformConfig config = parser.parse(text, "test.yaml");

        assertThat(config.stressTest().shadowSuffix()).isEqualTo(".shadow");
        List<TopicRoute> routes = config.topic("order-paid").orElseThrow().routes();
        assertThat(routes.get(1).shadowTopic()).contains("orders_stress_b");
        assertThat(routes).extracting(config::shadowTopic).containsExactly("order_paid.shadow", "orders_stress_b");
    }

    @Test
    void aShadowTopicBelongsToItsLogicTopicButOnlyWhenTheTopicTakesStressTraffic() throws Exception {
        PlatformConfig config = parser.parse(DOCUMENT, "test.yaml");

        assertThat(config.topicOf("cluster-b", "order_paid_b_SHADOW")).map(LogicTopicConfig::name).contains("order-paid");
        assertThat(config.topicOf("cluster-a", "order_paid_b_SHADOW")).isEmpty();
        assertThat(config.topicOf("cluster-a", "refunds_SHADOW")).isEmpty();
    }

    @Test
    void aSuffixARocketMqTopicNameCannotEndWithIsNamedWithKeyAndLine() {
        String text = DOCUMENT + "stressTest:\n  shadowSuffix: \"-shadow topic\"\n";

        assertThatThrownBy(() -> parser.parse(text, "test.yaml"))
                .isInstanceOfSatisfying(InvalidPlatformConfigException.class, e -> assertThat(e.problems())
                        .extracting(ConfigProblem::key).containsExactly("stressTest.shadowSuffix"))
                .hasMessageContaining("stressTest.shadowSuffix (line 14): must be 1-126 letters, digits, '.', '_' or '-'")
                .hasMessageContaining("was '-shadow topic'");
    }

    @Test
    void anEmptySuffixIsRefusedInCodeBecauseTheShadowWouldBeTheProductionTopic() {
        assertThatThrownBy(() -> PlatformConfig.builder()
                .cluster(new ClusterConfig("cluster-a", "idc-a", "127.0.0.1:9876", Map.of()))
                .topic(new LogicTopicConfig("t", List.of(new TopicRoute("cluster-a", "t", 1)), Map.of()).withStressTest(true))
                .stressTest(new StressTestConfig(""))
                .build())
                .isInstanceOfSatisfying(InvalidPlatformConfigException.class, e -> assertThat(e.problems())
                        .extracting(ConfigProblem::key).containsExactly("stressTest.shadowSuffix"))
                .hasMessageContaining("an empty suffix would make the shadow topic the production topic");
    }

    @Test
    void aShadowNameOverRocketMqsLengthLimitNamesTheRoute() throws Exception {
        String longest = "t".repeat(127 - "_SHADOW".length());
        assertThat(parser.parse(DOCUMENT.replace("physicalTopic: order_paid,", "physicalTopic: " + longest + ","), "ok.yaml")
                .shadowTopic(new TopicRoute("cluster-a", longest, 1))).hasSize(127);

        String text = DOCUMENT.replace("physicalTopic: order_paid,", "physicalTopic: " + longest + "x,");

        assertThatThrownBy(() -> parser.parse(text, "test.yaml"))
                .isInstanceOfSatisfying(InvalidPlatformConfigException.class, e -> assertThat(e.problems())
                        .extracting(ConfigProblem::key).containsExactly("topics.order-paid.routes[0].physicalTopic"))
                .hasMessageContaining("topics.order-paid.routes[0].physicalTopic (line 8): with stressTest.shadowSuffix '_SHADOW'"
                        + " its shadow topic is 128 characters, over RocketMQ's 127");
    }

    @Test
    void aTopicThatTakesNoStressTrafficIsNotLimitedByItsShadowName() throws Exception {
        String text = DOCUMENT.replace("physicalTopic: refunds,", "physicalTopic: " + "r".repeat(127) + ",");

        assertThat(parser.parse(text, "test.yaml").topic("refunds")).isPresent();
    }

    @Test
    void aShadowTopicThatIsAProductionTopicOfTheSameClusterIsRefused() {
        String text = DOCUMENT.replace("physicalTopic: order_paid, weight: 50 }",
                "physicalTopic: order_paid, weight: 50, shadowTopic: refunds }");

        assertThatThrownBy(() -> parser.parse(text, "test.yaml"))
                .isInstanceOfSatisfying(InvalidPlatformConfigException.class, e -> assertThat(e.problems())
                        .extracting(ConfigProblem::key).containsExactly("topics.order-paid.routes[0].shadowTopic"))
                .hasMessageContaining("the shadow topic 'refunds' on cluster 'cluster-a' is a production topic of logic topic"
                        + " 'refunds'; stress-test traffic must never reach a production topic");
    }

    @Test
    void aBadShadowTopicNameIsNamed() {
        String text = DOCUMENT.replace("physicalTopic: order_paid, weight: 50 }",
                "physicalTopic: order_paid, weight: 50, shadowTopic: \"with space\" }");

        assertThatThrownBy(() -> parser.parse(text, "test.yaml"))
                .isInstanceOfSatisfying(InvalidPlatformConfigException.class, e -> assertThat(e.problems())
                        .extracting(ConfigProblem::key).containsExactly("topics.order-paid.routes[0].shadowTopic"))
                .hasMessageContaining("shadow topic must be 1-127 letters");
    }

    @Test
    void theWriterKeepsEveryStressTestSetting() throws Exception {
        PlatformConfig original = PlatformConfig.builder()
                .cluster(new ClusterConfig("cluster-a", "idc-a", "127.0.0.1:9876", Map.of()))
                .topic(new LogicTopicConfig("order-paid",
                        List.of(new TopicRoute("cluster-a", "order_paid", 1, Optional.of("order_paid_load"))), Map.of())
                        .withStressTest(true))
                .topic(new LogicTopicConfig("refunds", List.of(new TopicRoute("cluster-a", "refunds", 1)), Map.of()))
                .stressTest(new StressTestConfig("-stress"))
                .build();

        PlatformConfig parsed = parser.parse(new PlatformConfigWriter().toYaml(original), "written.yaml");

        assertThat(parsed.topics()).isEqualTo(original.topics());
        assertThat(parsed.stressTest()).isEqualTo(original.stressTest());
    }
}
