package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.core.config.ClusterConfig;
import io.lanemq.core.config.ConsumerSettings;
import io.lanemq.core.config.LogicTopicConfig;
import io.lanemq.core.config.PlatformConfig;
import io.lanemq.core.config.StartPosition;
import io.lanemq.core.config.TopicRoute;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GroupSpecTest {
    private static final GroupKey KEY = new GroupKey("orders", "billing");

    @Test
    void sendWeightsAndListenerThreadsDoNotConcernTheProxyButRoutesAndAttemptsDo() throws Exception {
        GroupSpec base = GroupSpec.of(platform("orders_a", 50, 4, 16), KEY).orElseThrow();
        assertThat(GroupSpec.of(platform("orders_a", 90, 8, 16), KEY)).hasValue(base);
        assertThat(GroupSpec.of(platform("orders_b", 50, 4, 16), KEY)).isPresent().get().isNotEqualTo(base);
        assertThat(GroupSpec.of(platform("orders_a", 50, 4, 3), KEY)).isPresent().get().isNotEqualTo(base);
        assertThat(GroupSpec.of(platform("orders_a", 50, 4, 16), new GroupKey("orders", "unknown"))).isEmpty();
        assertThat(GroupSpec.of(platform("orders_a", 50, 4, 16), new GroupKey("unknown", "billing"))).isEmpty();
    }

    private static PlatformConfig platform(String physicalTopic, int weightA, int threads, int attempts) throws Exception {
        return PlatformConfig.builder()
                .cluster(new ClusterConfig("a", "idc-a", "127.0.0.1:9876", Map.of()))
                .cluster(new ClusterConfig("b", "idc-b", "127.0.0.2:9876", Map.of()))
                .topic(new LogicTopicConfig("orders", List.of(new TopicRoute("a", physicalTopic, weightA),
                        new TopicRoute("b", physicalTopic, 100 - weightA)),
                        Map.of("billing", new ConsumerSettings(threads, attempts, StartPosition.EARLIEST))))
                .build();
    }
}
