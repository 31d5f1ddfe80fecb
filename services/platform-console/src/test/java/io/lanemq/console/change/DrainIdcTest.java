package io.lanemq.console.change;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.TopicRoute;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class DrainIdcTest {
    private static final String CLUSTERS = """
            clusters:
              cluster-a: { idc: idc-a, nameServer: "127.0.0.1:9876" }
              cluster-a2: { idc: idc-a, nameServer: "127.0.0.1:9877" }
              cluster-b: { idc: idc-b, nameServer: "127.0.0.1:9878" }
            """;

    private static Map<String, Integer> weights(String yaml, String topic) throws InvalidPlatformConfigException {
        PlatformConfig config = Configs.parse(yaml, "test");
        return config.topic(topic).orElseThrow().routes().stream().collect(Collectors.toMap(TopicRoute::cluster, TopicRoute::weight));
    }

    @Test
    void movesEachTopicsWholeWeightToTheOtherIdcKeepingTheRatioThereAndItsTotal() throws Exception {
        String config = CLUSTERS + """
                topics:
                  orders:
                    routes:
                      - { cluster: cluster-a, physicalTopic: o, weight: 30 }
                      - { cluster: cluster-a2, physicalTopic: o, weight: 10 }
                      - { cluster: cluster-b, physicalTopic: o, weight: 60 }
                  idle-a:
                    routes:
                      - { cluster: cluster-a, physicalTopic: i, weight: 0 }
                      - { cluster: cluster-a2, physicalTopic: i, weight: 0 }
                      - { cluster: cluster-b, physicalTopic: i, weight: 7 }
                  only-a:
                    routes:
                      - { cluster: cluster-a, physicalTopic: x, weight: 5 }
                      - { cluster: cluster-b, physicalTopic: x, weight: 0 }
                """;

        String drained = Configs.applied(new DrainIdc("idc-b"), config, "test");

        assertThat(weights(drained, "orders")).as("60 more over 30:10, total 100 kept")
                .isEqualTo(Map.of("cluster-a", 75, "cluster-a2", 25, "cluster-b", 0));
        assertThat(weights(drained, "idle-a")).as("the remaining routes had 0: an even split")
                .isEqualTo(Map.of("cluster-a", 4, "cluster-a2", 3, "cluster-b", 0));
        assertThat(weights(drained, "only-a")).as("nothing sent to idc-b: unchanged").isEqualTo(Map.of("cluster-a", 5, "cluster-b", 0));
    }

    @Test
    void refusesTheWholeDrainNamingATopicThatHasNoRouteOutsideTheIdc() throws Exception {
        String config = CLUSTERS + """
                topics:
                  orders:
                    routes:
                      - { cluster: cluster-a, physicalTopic: o, weight: 50 }
                      - { cluster: cluster-b, physicalTopic: o, weight: 50 }
                  b-only:
                    routes:
                      - { cluster: cluster-b, physicalTopic: x, weight: 10 }
                """;

        assertThatThrownBy(() -> Configs.applied(new DrainIdc("idc-b"), config, "test")).isInstanceOfSatisfying(InvalidPlatformConfigException.class,
                e -> assertThat(e.problems()).singleElement().hasToString("topics.b-only.routes: has no route outside IDC 'idc-b', so its sends cannot move"));
        assertThatThrownBy(() -> Configs.applied(new DrainIdc("idc-z"), config, "test")).hasMessageContaining("no cluster is in IDC 'idc-z'");
    }

    @Test
    void undoRestoresTheWeightsBeforeTheDrainAndKeepsWhatChangedSince() throws Exception {
        String before = CLUSTERS + """
                topics:
                  orders:
                    routes:
                      - { cluster: cluster-a, physicalTopic: o, weight: 20 }
                      - { cluster: cluster-b, physicalTopic: o, weight: 80 }
                """;
        String drained = Configs.applied(new DrainIdc("idc-b"), before, "test");
        String laterEdit = Configs.applied(new SetRateLimit("orders", 500), drained, "test") + """
                  new-since:
                    routes: [{ cluster: cluster-a, physicalTopic: n }]
                """;

        String undone = Configs.applied(new RestoreWeights("drain idc-b at revision 9", before), laterEdit, "test");

        assertThat(weights(undone, "orders")).isEqualTo(Map.of("cluster-a", 20, "cluster-b", 80));
        PlatformConfig config = Configs.parse(undone, "undone");
        assertThat(config.topic("orders").orElseThrow().rateLimitPerSecond()).as("a later change stays").isEqualTo(500);
        assertThat(config.topic("new-since")).as("a topic created since stays").isPresent();
        assertThat(undone).as("back to the text before, but for the later changes").isEqualTo(laterEdit
                .replace("weight: 100 }", "weight: 20 }").replace("weight: 0 }", "weight: 80 }"));
    }

    private static final String STAGING_OWN_ROUTES = CLUSTERS + """
            topics:
              orders:
                routes:
                  - { cluster: cluster-a, physicalTopic: o, weight: 50 }
                  - { cluster: cluster-b, physicalTopic: o, weight: 50 }
            environments:
              staging:
                physicalTopicSuffix: _stg
                topics:
                  orders:
                    routes:
                      - { cluster: cluster-a2, physicalTopic: o_stg, weight: 9 }
                      - { cluster: cluster-b, physicalTopic: o_stg, weight: 1 }
            """;

    private static Map<String, Integer> weights(String yaml, String environment, String topic) throws InvalidPlatformConfigException {
        return new io.lanemq.config.PlatformConfigParser(environment).parse(yaml, environment).topic(topic).orElseThrow().routes().stream()
                .collect(Collectors.toMap(TopicRoute::cluster, TopicRoute::weight));
    }

    @Test
    void movesAnEnvironmentsOwnRoutesTooAndUndoGivesTheTextBack() throws Exception {
        String drained = Configs.applied(new DrainIdc("idc-b"), STAGING_OWN_ROUTES, "test");

        assertThat(weights(drained, "default", "orders")).isEqualTo(Map.of("cluster-a", 100, "cluster-b", 0));
        assertThat(weights(drained, "staging", "orders")).as("staging's own routes move as well")
                .isEqualTo(Map.of("cluster-a2", 10, "cluster-b", 0));
        assertThat(Configs.applied(new RestoreWeights("drain idc-b at revision 3", STAGING_OWN_ROUTES), drained, "test"))
                .isEqualTo(STAGING_OWN_ROUTES);
    }

    @Test
    void refusesADrainAnEnvironmentsOwnRoutesCannotTakeNamingThem() {
        String stagingOnlyOnB = STAGING_OWN_ROUTES.replace("      - { cluster: cluster-a2, physicalTopic: o_stg, weight: 9 }\n", "");

        assertThatThrownBy(() -> Configs.applied(new DrainIdc("idc-b"), stagingOnlyOnB, "test")).isInstanceOfSatisfying(InvalidPlatformConfigException.class,
                e -> assertThat(e.problems()).singleElement().hasToString(
                        "environments.staging.topics.orders.routes: has no route outside IDC 'idc-b', so its sends cannot move"));
    }
}
