package io.lanemq.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** One document, several environments: what each resolves to, and the documents refused because two would meet. */
class EnvironmentsTest {
    private static final String BASE = """
            clusters:
              cluster-a: { idc: idc-a, nameServer: "10.0.0.1:9876" }
              cluster-b: { idc: idc-b, nameServer: "10.1.0.1:9876" }
            topics:
              order-paid:
                routes:
                  - { cluster: cluster-a, physicalTopic: order_paid, weight: 50 }
                  - { cluster: cluster-b, physicalTopic: order_paid, weight: 50 }
                consumerGroups:
                  billing: { threads: 8 }
                  audit: {}
            """;

    private static final String TWO_ENVIRONMENTS = BASE + """
            environments:
              staging:
                physicalTopicSuffix: _staging
                topics:
                  order-paid:
                    consumerGroups:
                      billing: { threads: 2 }
                  staging-only:
                    routes:
                      - { cluster: cluster-a, physicalTopic: staging_only }
              dev:
                consumerGroupSuffix: _dev
                clusters:
                  cluster-dev: { idc: idc-a, nameServer: "10.0.9.1:9876" }
                delay: { internalTopic: LANEMQ_DELAY_DEV }
                topics:
                  order-paid:
                    routes:
                      - { cluster: cluster-dev, physicalTopic: order_paid }
            """;

    @Test
    void theTopLevelIsTheDefaultEnvironmentAndTheOthersAreNotVisibleInIt() throws Exception {
        PlatformConfig config = new PlatformConfigParser().parse(TWO_ENVIRONMENTS, "platform.yaml");

        assertThat(config.topic("order-paid").orElseThrow().routes()).extracting(TopicRoute::physicalTopic)
                .containsExactly("order_paid", "order_paid");
        assertThat(config.topic("staging-only")).isEmpty();
        assertThat(config.delay().internalTopic()).isEqualTo(DelayConfig.DEFAULTS.internalTopic());
    }

    @Test
    void anEnvironmentInheritsWhatItDoesNotSayWithItsSuffixOnEveryInheritedTopic() throws Exception {
        PlatformConfig staging = new PlatformConfigParser("staging").parse(TWO_ENVIRONMENTS, "platform.yaml");

        LogicTopicConfig orders = staging.topic("order-paid").orElseThrow();
        assertThat(orders.routes()).containsExactly(new TopicRoute("cluster-a", "order_paid_staging", 50),
                new TopicRoute("cluster-b", "order_paid_staging", 50));
        assertThat(orders.consumerGroups().get("billing").threads()).as("its own setting").isEqualTo(2);
        assertThat(orders.consumerGroups()).as("inherited group").containsKey("audit");
        assertThat(staging.topic("staging-only").orElseThrow().routes()).extracting(TopicRoute::physicalTopic)
                .as("its own routes, as written").containsExactly("staging_only");
        assertThat(staging.delay().internalTopic()).as("the delay servers' topic too")
                .isEqualTo(DelayConfig.DEFAULTS.internalTopic() + "_staging");
        assertThat(staging.clusters()).containsOnlyKeys("cluster-a", "cluster-b");
    }

    @Test
    void anEnvironmentMayHaveClustersOfItsOwnAndRoutesReplacedWhole() throws Exception {
        PlatformConfig dev = new PlatformConfigParser("dev").parse(TWO_ENVIRONMENTS, "platform.yaml");

        assertThat(dev.clusters()).containsKeys("cluster-a", "cluster-b", "cluster-dev");
        assertThat(dev.topic("order-paid").orElseThrow().routes()).containsExactly(new TopicRoute("cluster-dev", "order_paid", 1));
        assertThat(dev.delay().internalTopic()).isEqualTo("LANEMQ_DELAY_DEV");
        assertThat(dev.physicalGroup("billing")).isEqualTo("billing_dev");
    }

    @Test
    void groupsOnTheBrokersCarryTheEnvironmentsSuffixSoTheCodesNamesNeedNotChange() throws Exception {
        PlatformConfig staging = new PlatformConfigParser("staging").parse(TWO_ENVIRONMENTS, "platform.yaml");

        assertThat(staging.physicalGroup("billing")).as("the physicalTopicSuffix, when no consumerGroupSuffix").isEqualTo("billing_staging");
        assertThat(new PlatformConfigParser().parse(TWO_ENVIRONMENTS, "platform.yaml").physicalGroup("billing")).isEqualTo("billing");
    }

    @Test
    void twoEnvironmentsConsumingAsOneGroupOnACluster_areRefused() {
        String sharedGroup = BASE + """
                environments:
                  staging:
                    physicalTopicSuffix: _staging
                    consumerGroupSuffix: ""
                """;

        assertThatThrownBy(() -> new PlatformConfigParser("staging").parse(sharedGroup, "platform.yaml"))
                .hasMessageContaining("environments 'default' and 'staging' both consume as group billing on cluster cluster-a")
                .hasMessageContaining("consumerGroupSuffix");
    }

    @Test
    void twoEnvironmentsOnOnePhysicalTopicOfACluster_areRefusedNamingBothAndTheTopic() {
        String leaking = BASE + """
                environments:
                  staging:
                    delay: { internalTopic: LANEMQ_DELAY_STAGING }
                    topics:
                      order-paid:
                        routes:
                          - { cluster: cluster-a, physicalTopic: order_paid_staging }
                          - { cluster: cluster-b, physicalTopic: order_paid }
                """;

        assertThatThrownBy(() -> new PlatformConfigParser("staging").parse(leaking, "platform.yaml"))
                .isInstanceOf(InvalidPlatformConfigException.class)
                .hasMessageContaining("environments 'default' and 'staging' both use physical topic order_paid on cluster cluster-b")
                .hasMessageContaining("physicalTopicSuffix");
        assertThatThrownBy(() -> new PlatformConfigParser().parse(leaking, "platform.yaml"))
                .as("refused for every environment, the default's clients included").isInstanceOf(InvalidPlatformConfigException.class);
    }

    @Test
    void anEnvironmentThatInheritsEverythingSharesTheDelayTopicAndIsRefused() {
        String noSuffix = BASE + """
                environments:
                  staging:
                    topics:
                      order-paid:
                        routes:
                          - { cluster: cluster-a, physicalTopic: order_paid_staging }
                """;

        assertThatThrownBy(() -> new PlatformConfigParser("staging").parse(noSuffix, "platform.yaml"))
                .hasMessageContaining("both use physical topic LANEMQ_DELAY on cluster cluster-a");
    }

    @Test
    void aMistakeInsideAnEnvironmentNamesTheEnvironment() {
        String unknownCluster = BASE + """
                environments:
                  staging:
                    physicalTopicSuffix: _staging
                    topics:
                      order-paid:
                        routes:
                          - { cluster: cluster-z, physicalTopic: order_paid }
                """;

        assertThatThrownBy(() -> new PlatformConfigParser().parse(unknownCluster, "platform.yaml"))
                .hasMessageContaining("environments.staging.topics.order-paid.routes[0].cluster")
                .hasMessageContaining("in environment 'staging'")
                .hasMessageContaining("cluster-z");
    }

    @Test
    void anEnvironmentTheDocumentDoesNotHaveIsRefusedListingThoseItHas() {
        assertThatThrownBy(() -> new PlatformConfigParser("prod").parse(TWO_ENVIRONMENTS, "platform.yaml"))
                .hasMessageContaining("no environment 'prod' in this document; it has [default, staging, dev]");
        assertThatThrownBy(() -> new PlatformConfigParser(" ")).hasMessageContaining("environment must be a name");
    }
}
