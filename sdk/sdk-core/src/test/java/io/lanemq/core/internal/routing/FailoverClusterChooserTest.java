package io.lanemq.core.internal.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.ClientHealth;
import io.lanemq.api.ClientHealth.ClusterState;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigRef;
import io.lanemq.config.TopicRoute;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.failover.LatencyPolicy;
import io.lanemq.support.Ticker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FailoverClusterChooserTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private FailoverClusterChooser chooser;
    private PlatformConfigRef ref;

    private static LogicTopicConfig topic(int weightA, int weightB) {
        return new LogicTopicConfig("t", List.of(new TopicRoute("a", "t", weightA), new TopicRoute("b", "t", weightB)),
                Map.<String, ConsumerConfig>of());
    }

    private void start(LogicTopicConfig topic) throws Exception {
        ref = new PlatformConfigRef(platform(topic));
        chooser = new FailoverClusterChooser(ref, new SdkMetrics(registry, "test"), LatencyPolicy.disabled(),
                Ticker.system(), "test");
    }

    private static PlatformConfig platform(LogicTopicConfig topic) throws Exception {
        return PlatformConfig.builder()
                // Unreachable name servers: probes fail, so a downed cluster stays down in these tests.
                .cluster(new ClusterConfig("a", "idc-a", "127.0.0.1:1", Map.of()))
                .cluster(new ClusterConfig("b", "idc-b", "127.0.0.1:1", Map.of()))
                .topic(topic).build();
    }

    /** Fails every send A gets and lets B's succeed, until the failover takes A out of rotation. */
    private void failUntilDown(LogicTopicConfig topic, String cluster) {
        // A shrinking weight makes the cluster rarely picked, so keep sending until it has failed its way down.
        for (int i = 0; i < 100_000 && !isDown(cluster); i++) {
            RouteLease lease = chooser.choose(topic, Optional.empty(), Set.of()).orElseThrow();
            if (lease.route().cluster().equals(cluster)) {
                lease.failed();
            } else {
                lease.succeeded(1_000_000);
            }
        }
        assertThat(isDown(cluster)).as(cluster + " taken out of rotation").isTrue();
    }

    private ClientHealth.Cluster health(String cluster) {
        return chooser.health().stream().filter(c -> c.name().equals(cluster)).findFirst().orElseThrow();
    }

    @AfterEach
    void close() {
        if (chooser != null) {
            chooser.close();
        }
    }

    private Map<String, Integer> split(LogicTopicConfig topic, int sends) {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < sends; i++) {
            RouteLease lease = chooser.choose(topic, Optional.empty(), Set.of()).orElseThrow();
            lease.succeeded(1_000_000);
            counts.merge(lease.route().cluster(), 1, Integer::sum);
        }
        return counts;
    }

    private boolean isDown(String cluster) {
        return chooser.stats("t").stream().anyMatch(s -> s.callee().equals(cluster) && s.down());
    }

    @Test
    void healthyClustersSplitByConfiguredWeight() throws Exception {
        LogicTopicConfig topic = topic(70, 30);
        start(topic);
        assertThat(split(topic, 20_000).get("a") / 20_000.0).isBetween(0.67, 0.73);
    }

    @Test
    void aZeroWeightClusterIsDrainedAndTakesNoSendNotEvenARetryWhenTheOtherFailed() throws Exception {
        LogicTopicConfig topic = topic(100, 0);
        start(topic);
        assertThat(split(topic, 5_000)).containsOnlyKeys("a");
        assertThat(chooser.choose(topic, Optional.empty(), Set.of("a"))).as("a retry after a failed on a").isEmpty();
        failUntilDown(topic, "a");
        assertThat(chooser.choose(topic, Optional.empty(), Set.of()).orElseThrow().route().cluster())
                .as("every weighted cluster down: the last resort is still a weighted one").isEqualTo("a");
        assertThat(chooser.choose(topic, Optional.of("some-key"), Set.of("a"))).as("a keyed send's retry").isEmpty();
    }

    @Test
    void failingClusterLosesItsShareAndTheWeightGaugeShowsIt() throws Exception {
        LogicTopicConfig topic = topic(50, 50);
        start(topic);
        failUntilDown(topic, "a");
        assertThat(split(topic, 2_000).getOrDefault("a", 0)).isZero();
        assertThat(registry.get(SdkMetrics.CLUSTER_WEIGHT).tag(SdkMetrics.TAG_CLUSTER, "a").gauge().value()).isLessThan(1);
        assertThat(registry.get(SdkMetrics.CLUSTER_WEIGHT).tag(SdkMetrics.TAG_CLUSTER, "b").gauge().value()).isEqualTo(50);
    }

    @Test
    void shardingKeyStaysOnItsClusterUntilThatClusterGoesDown() throws Exception {
        LogicTopicConfig topic = topic(50, 50);
        start(topic);
        String keyOnA = null;
        for (int i = 0; keyOnA == null; i++) {
            if (ShardingKeys.routeOf(topic, "key-" + i).cluster().equals("a")) {
                keyOnA = "key-" + i;
            }
        }
        for (int i = 0; i < 7; i++) {
            RouteLease lease = chooser.choose(topic, Optional.of(keyOnA), Set.of()).orElseThrow();
            assertThat(lease.route().cluster()).as("attempt " + i).isEqualTo("a");
            lease.failed();
        }
        for (int i = 0; i < 100; i++) {
            RouteLease moved = chooser.choose(topic, Optional.of(keyOnA), Set.of()).orElseThrow();
            assertThat(moved.route().cluster()).isEqualTo("b");
            moved.succeeded(1_000_000);
        }
    }

    @Test
    void excludedClustersAreNotChosenAndNothingLeftIsEmpty() throws Exception {
        LogicTopicConfig topic = topic(50, 50);
        start(topic);
        for (int i = 0; i < 1_000; i++) {
            RouteLease lease = chooser.choose(topic, Optional.empty(), Set.of("a")).orElseThrow();
            assertThat(lease.route().cluster()).isEqualTo("b");
            lease.ignored();
        }
        assertThat(chooser.choose(topic, Optional.empty(), Set.of("a", "b"))).isEmpty();
        assertThat(chooser.choose(topic, Optional.of("k"), Set.of("a", "b"))).isEmpty();
    }

    @Test
    void whenEveryClusterIsDownSendsStillTryOneByConfiguredWeight() throws Exception {
        LogicTopicConfig topic = topic(50, 50);
        start(topic);
        for (int i = 0; i < 400; i++) {
            chooser.choose(topic, Optional.empty(), Set.of()).orElseThrow().failed();
        }
        assertThat(chooser.stats("t")).allSatisfy(s -> assertThat(s.down()).isTrue());
        assertThat(split(topic, 10_000).get("a") / 10_000.0).isBetween(0.45, 0.55);
        assertThat(chooser.choose(topic, Optional.empty(), Set.of("a")).orElseThrow().route().cluster()).isEqualTo("b");
    }

    @Test
    void keysSpreadOverClustersByWeight() {
        LogicTopicConfig topic = topic(50, 50);
        int onA = 0;
        for (int i = 0; i < 20_000; i++) {
            onA += ShardingKeys.routeOf(topic, "user-" + i).cluster().equals("a") ? 1 : 0;
        }
        assertThat(onA / 20_000.0).isBetween(0.47, 0.53);
    }

    @Test
    void aClusterNoSendHasHadAnOutcomeOnIsNotJudgedAndOneWithAnOutcomeIsUp() throws Exception {
        LogicTopicConfig topic = topic(50, 50);
        start(topic);
        assertThat(chooser.health()).as("every cluster of the configuration, by name").extracting(ClientHealth.Cluster::name)
                .containsExactly("a", "b");
        assertThat(chooser.health()).allSatisfy(cluster -> {
            assertThat(cluster.state()).isEqualTo(ClusterState.UNKNOWN);
            assertThat(cluster.reason()).hasValueSatisfying(reason -> assertThat(reason).contains("no send"));
        });

        chooser.choose(topic, Optional.empty(), Set.of("b")).orElseThrow().ignored();
        assertThat(health("a").state()).as("an ignored outcome says nothing of the cluster").isEqualTo(ClusterState.UNKNOWN);

        chooser.choose(topic, Optional.empty(), Set.of("b")).orElseThrow().succeeded(1_000_000);
        assertThat(health("a")).isEqualTo(new ClientHealth.Cluster("a", "idc-a", ClusterState.UP, Optional.empty()));
        assertThat(health("b").state()).isEqualTo(ClusterState.UNKNOWN);

        chooser.choose(topic, Optional.empty(), Set.of("a")).orElseThrow().failed();
        assertThat(health("b").state()).as("one failure halves the weight: still in rotation").isEqualTo(ClusterState.UP);
    }

    @Test
    void aClusterTheFailoverTookOutOfRotationIsDownNamingTheTopic() throws Exception {
        LogicTopicConfig topic = topic(50, 50);
        start(topic);
        failUntilDown(topic, "a");

        assertThat(health("a").state()).isEqualTo(ClusterState.DOWN);
        assertThat(health("a").reason()).hasValueSatisfying(reason -> assertThat(reason)
                .contains("logic topic t").contains("name servers").doesNotContain("127.0.0.1"));
        assertThat(health("b").state()).isEqualTo(ClusterState.UP);
    }

    @Test
    void aReloadThatMovesTheRoutesOffADownClusterLeavesItUnjudged() throws Exception {
        LogicTopicConfig topic = topic(50, 50);
        start(topic);
        failUntilDown(topic, "a");

        ref.swap(platform(new LogicTopicConfig("t", List.of(new TopicRoute("b", "t", 100)), Map.<String, ConsumerConfig>of())));

        assertThat(health("a").state()).as("no topic in force routes to a, before and after the next send")
                .isEqualTo(ClusterState.UNKNOWN);
        chooser.choose(ref.current().topic("t").orElseThrow(), Optional.empty(), Set.of()).orElseThrow().succeeded(1_000_000);
        assertThat(health("a").state()).isEqualTo(ClusterState.UNKNOWN);
        assertThat(health("b").state()).isEqualTo(ClusterState.UP);
    }

    @Test
    void aClusterUnreachableWhenAProducerStartsGetsNoneOfItsFirstSendsAndShowsDown() throws Exception {
        LogicTopicConfig topic = topic(50, 50);
        start(topic);

        Map<String, String> unreachable = chooser.checkReachable(cluster -> cluster.name().equals("b")
                ? Optional.of("no name server accepted a connection") : Optional.empty());

        assertThat(unreachable).containsOnlyKeys("b");
        assertThat(split(topic, 200)).as("the first sends of a topic whose failover is made after the check")
                .containsOnlyKeys("a");
        assertThat(health("b").state()).isEqualTo(ClusterState.DOWN);
    }

    @Test
    void aTopicAlreadySentOnLosesAClusterFoundUnreachableByALaterProducersStart() throws Exception {
        LogicTopicConfig topic = topic(50, 50);
        start(topic);
        assertThat(split(topic, 200)).containsKeys("a", "b");

        chooser.checkReachable(cluster -> cluster.name().equals("b") ? Optional.of("refused") : Optional.empty());

        assertThat(split(topic, 200)).containsOnlyKeys("a");
    }
}
