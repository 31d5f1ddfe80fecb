package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.ConsumptionMode;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.StartPosition;
import io.lanemq.config.TopicRoute;
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

    @Test
    void flowLimitsComeFromThePlatformWhereItSetsThemAndAChangeRestartsTheGroup() throws Exception {
        ConsumerConfig unset = new ConsumerConfig(4, 16, StartPosition.EARLIEST);
        ConsumerConfig limited = new ConsumerConfig(4, 16, StartPosition.EARLIEST, 32, ConsumptionMode.DIRECT, 500, 0);
        GroupLimits proxyOwn = new GroupLimits(2_000, 300);

        assertThat(GroupLimits.of(unset, proxyOwn)).isEqualTo(proxyOwn);
        assertThat(GroupLimits.of(limited, proxyOwn)).isEqualTo(new GroupLimits(500, 300));
        assertThat(GroupLimits.of(new ConsumerConfig(4, 16, StartPosition.EARLIEST, 32, ConsumptionMode.DIRECT, 0, 1_000),
                proxyOwn)).isEqualTo(new GroupLimits(2_000, 1_000));
        assertThat(GroupSpec.of(platform("orders_a", 50, limited), KEY))
                .isPresent().get().isNotEqualTo(GroupSpec.of(platform("orders_a", 50, unset), KEY).orElseThrow());
    }

    private static PlatformConfig platform(String physicalTopic, int weightA, int threads, int attempts) throws Exception {
        return platform(physicalTopic, weightA, new ConsumerConfig(threads, attempts, StartPosition.EARLIEST));
    }

    private static PlatformConfig platform(String physicalTopic, int weightA, ConsumerConfig billing) throws Exception {
        return PlatformConfig.builder()
                .cluster(new ClusterConfig("a", "idc-a", "127.0.0.1:9876", Map.of()))
                .cluster(new ClusterConfig("b", "idc-b", "127.0.0.2:9876", Map.of()))
                .topic(new LogicTopicConfig("orders", List.of(new TopicRoute("a", physicalTopic, weightA),
                        new TopicRoute("b", physicalTopic, 100 - weightA)),
                        Map.of("billing", billing)))
                .build();
    }
}
