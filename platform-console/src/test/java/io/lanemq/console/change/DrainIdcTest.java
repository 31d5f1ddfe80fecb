package io.lanemq.console.change;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.config.ClusterConfig;
import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.TopicRoute;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DrainIdcTest {
    private static final ClusterConfig A = new ClusterConfig("cluster-a", "idc-a", "127.0.0.1:9876", Map.of());
    private static final ClusterConfig A2 = new ClusterConfig("cluster-a2", "idc-a", "127.0.0.1:9877", Map.of());
    private static final ClusterConfig B = new ClusterConfig("cluster-b", "idc-b", "127.0.0.1:9878", Map.of());

    private static LogicTopicConfig topic(String name, TopicRoute... routes) {
        return new LogicTopicConfig(name, List.of(routes), Map.of());
    }

    private static Map<String, Integer> weights(PlatformConfig config, String topic) {
        return config.topic(topic).orElseThrow().routes().stream()
                .collect(java.util.stream.Collectors.toMap(TopicRoute::cluster, TopicRoute::weight));
    }

    @Test
    void movesEachTopicsWholeWeightToTheOtherIdcKeepingTheRatioThereAndItsTotal() throws Exception {
        PlatformConfig config = PlatformConfig.builder().cluster(A).cluster(A2).cluster(B)
                .topic(topic("orders", new TopicRoute("cluster-a", "o", 30), new TopicRoute("cluster-a2", "o", 10), new TopicRoute("cluster-b", "o", 60)))
                .topic(topic("idle-a", new TopicRoute("cluster-a", "i", 0), new TopicRoute("cluster-a2", "i", 0), new TopicRoute("cluster-b", "i", 7)))
                .topic(topic("only-a", new TopicRoute("cluster-a", "x", 5), new TopicRoute("cluster-b", "x", 0)))
                .build();

        PlatformConfig drained = new DrainIdc("idc-b").applyTo(config).build();

        assertThat(weights(drained, "orders")).as("60 more over 30:10, total 100 kept")
                .isEqualTo(Map.of("cluster-a", 75, "cluster-a2", 25, "cluster-b", 0));
        assertThat(weights(drained, "idle-a")).as("the remaining routes had 0: an even split")
                .isEqualTo(Map.of("cluster-a", 4, "cluster-a2", 3, "cluster-b", 0));
        assertThat(weights(drained, "only-a")).as("nothing sent to idc-b: unchanged").isEqualTo(Map.of("cluster-a", 5, "cluster-b", 0));
    }

    @Test
    void refusesTheWholeDrainNamingATopicThatHasNoRouteOutsideTheIdc() throws Exception {
        PlatformConfig config = PlatformConfig.builder().cluster(A).cluster(B)
                .topic(topic("orders", new TopicRoute("cluster-a", "o", 50), new TopicRoute("cluster-b", "o", 50)))
                .topic(topic("b-only", new TopicRoute("cluster-b", "x", 10)))
                .build();

        assertThatThrownBy(() -> new DrainIdc("idc-b").applyTo(config)).isInstanceOfSatisfying(InvalidPlatformConfigException.class,
                e -> assertThat(e.problems()).singleElement().hasToString("topics.b-only.routes: has no route outside IDC 'idc-b', so its sends cannot move"));
        assertThatThrownBy(() -> new DrainIdc("idc-z").applyTo(config)).hasMessageContaining("no cluster is in IDC 'idc-z'");
    }

    @Test
    void undoRestoresTheWeightsBeforeTheDrainAndKeepsWhatChangedSince() throws Exception {
        PlatformConfig before = PlatformConfig.builder().cluster(A).cluster(B)
                .topic(topic("orders", new TopicRoute("cluster-a", "o", 20), new TopicRoute("cluster-b", "o", 80)))
                .build();
        PlatformConfig drained = new DrainIdc("idc-b").applyTo(before).build();
        PlatformConfig laterEdit = Configs.toBuilder(drained).topic(drained.topic("orders").orElseThrow().withRateLimit(500))
                .topic(topic("new-since", new TopicRoute("cluster-a", "n", 1))).build();

        PlatformConfig undone = new RestoreWeights("drain idc-b at revision 9", before).applyTo(laterEdit).build();

        assertThat(weights(undone, "orders")).isEqualTo(Map.of("cluster-a", 20, "cluster-b", 80));
        assertThat(undone.topic("orders").orElseThrow().rateLimitPerSecond()).as("a later change stays").isEqualTo(500);
        assertThat(undone.topic("new-since")).as("a topic created since stays").isPresent();
    }
}
