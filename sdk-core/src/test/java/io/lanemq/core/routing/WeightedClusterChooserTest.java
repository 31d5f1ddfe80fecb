package io.lanemq.core.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.core.config.ConsumerSettings;
import io.lanemq.core.config.LogicTopicConfig;
import io.lanemq.core.config.TopicRoute;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WeightedClusterChooserTest {
    private static LogicTopicConfig topic(int weightA, int weightB) {
        return new LogicTopicConfig("t", List.of(new TopicRoute("a", "t", weightA), new TopicRoute("b", "t", weightB)),
                Map.<String, ConsumerSettings>of());
    }

    @Test
    void splitFollowsWeights() {
        SplittableRandom random = new SplittableRandom(42);
        WeightedClusterChooser chooser = new WeightedClusterChooser(random::nextInt);
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < 100_000; i++) {
            counts.merge(chooser.choose(topic(70, 30), Optional.empty()).orElseThrow().cluster(), 1, Integer::sum);
        }
        assertThat(counts.get("a") / 100_000.0).isBetween(0.69, 0.71);
    }

    @Test
    void zeroWeightRouteGetsNothing() {
        WeightedClusterChooser chooser = new WeightedClusterChooser();
        for (int i = 0; i < 10_000; i++) {
            assertThat(chooser.choose(topic(100, 0), Optional.empty()).orElseThrow().cluster()).isEqualTo("a");
            assertThat(chooser.choose(topic(100, 0), Optional.of("key-" + i)).orElseThrow().cluster()).isEqualTo("a");
        }
    }

    @Test
    void shardingKeySticksToOneRouteAndKeysSpreadByWeight() {
        WeightedClusterChooser chooser = new WeightedClusterChooser();
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < 20_000; i++) {
            String key = "user-" + i;
            String first = chooser.choose(topic(50, 50), Optional.of(key)).orElseThrow().cluster();
            assertThat(chooser.choose(topic(50, 50), Optional.of(key)).orElseThrow().cluster()).isEqualTo(first);
            counts.merge(first, 1, Integer::sum);
        }
        assertThat(counts.get("a") / 20_000.0).isBetween(0.47, 0.53);
    }
}
