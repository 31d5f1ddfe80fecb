package io.lanemq.core.internal.consume;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.Subscription;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.StressTestConfig;
import io.lanemq.config.TopicRoute;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a DIRECT group subscribes on each cluster: the route's topic, and its shadow when the topic takes stress traffic. */
class DirectConsumptionPlanTest {
    private static final Subscription BILLING = Subscription.builder("order-paid", "billing").build();
    private static final List<TopicRoute> ROUTES = List.of(new TopicRoute("cluster-a", "order_paid", 50),
            new TopicRoute("cluster-b", "order_paid_b", 50, Optional.of("order_paid_load_b")));

    @Test
    void aGroupOfATopicThatTakesStressTrafficAlsoSubscribesEachRoutesShadowTopic() throws Exception {
        LogicTopicConfig topic = new LogicTopicConfig("order-paid", ROUTES, Map.of("billing", ConsumerConfig.DEFAULTS))
                .withStressTest(true);
        PlatformConfig config = config(topic);

        Map<String, BoundConsumerSpec> plan = DirectConsumption.plan(BILLING, topic, ConsumerConfig.DEFAULTS, config,
                Optional.of("lane-A"));

        assertThat(plan.get("cluster-a").topic()).isEqualTo("order_paid");
        assertThat(plan.values()).as("a lane member's tag stays").allSatisfy(spec -> assertThat(spec.memberTag()).contains("lane-A"));
        assertThat(plan.get("cluster-a").shadowTopics()).containsExactly("order_paid.load");
        assertThat(plan.get("cluster-b").shadowTopics()).containsExactly("order_paid_load_b");
        assertThat(plan.values()).allSatisfy(spec -> assertThat(spec.drainTopics()).isEmpty());
        BoundConsumerSpec draining = plan.get("cluster-a").draining(List.of("old"));
        assertThat(draining.shadowTopics()).as("a drain keeps the shadow topics").containsExactly("order_paid.load");
        assertThat(draining.memberTag()).contains("lane-A");
    }

    @Test
    void aGroupOfATopicThatTakesNoStressTrafficSubscribesNoShadowTopic() throws Exception {
        LogicTopicConfig topic = new LogicTopicConfig("order-paid", ROUTES, Map.of("billing", ConsumerConfig.DEFAULTS));

        Map<String, BoundConsumerSpec> plan = DirectConsumption.plan(BILLING, topic, ConsumerConfig.DEFAULTS, config(topic),
                Optional.empty());

        assertThat(plan.values()).allSatisfy(spec -> assertThat(spec.shadowTopics()).isEmpty());
    }

    @Test
    void theGroupsThreadsAreTheConsumersTotalSplitOverTheClustersNotRunOnEach() throws Exception {
        LogicTopicConfig topic = new LogicTopicConfig("order-paid", ROUTES, Map.of("billing", ConsumerConfig.DEFAULTS));

        for (int total : new int[] {8, 5, 2, 1}) {
            Map<String, BoundConsumerSpec> plan = DirectConsumption.plan(BILLING, topic, ConsumerConfig.DEFAULTS.withThreads(total),
                    config(topic), Optional.empty());
            int running = plan.values().stream().mapToInt(BoundConsumerSpec::consumeThreads).sum();
            assertThat(running).as("threads running for threads=%d over 2 clusters (at least one per cluster)", total)
                    .isEqualTo(Math.max(total, 2));
            assertThat(plan.get("cluster-a").consumeThreads() - plan.get("cluster-b").consumeThreads())
                    .as("as even as it can be for threads=%d", total).isBetween(0, 1);
        }
    }

    @Test
    void aSubscriptionsOwnThreadsAndAttemptsOverrideTheGroupsPlatformSettings() throws Exception {
        LogicTopicConfig topic = new LogicTopicConfig("order-paid", ROUTES, Map.of("billing", ConsumerConfig.DEFAULTS));
        Subscription own = Subscription.builder("order-paid", "billing").threads(3).maxDeliveryAttempts(2).build();

        Map<String, BoundConsumerSpec> plan = DirectConsumption.plan(own, topic, ConsumerConfig.DEFAULTS, config(topic),
                Optional.empty());

        assertThat(plan.values().stream().mapToInt(BoundConsumerSpec::consumeThreads).sum()).isEqualTo(3);
        assertThat(plan.values()).allSatisfy(spec -> assertThat(spec.maxDeliveryAttempts()).isEqualTo(2));
        Map<String, BoundConsumerSpec> platform = DirectConsumption.plan(BILLING, topic, ConsumerConfig.DEFAULTS, config(topic),
                Optional.empty());
        assertThat(platform.values()).as("without overrides: the platform's 16 attempts")
                .allSatisfy(spec -> assertThat(spec.maxDeliveryAttempts()).isEqualTo(ConsumerConfig.DEFAULTS.maxDeliveryAttempts()));
    }

    private static PlatformConfig config(LogicTopicConfig topic) throws Exception {
        return PlatformConfig.builder()
                .cluster(new ClusterConfig("cluster-a", "idc-a", "127.0.0.1:9876", Map.of()))
                .cluster(new ClusterConfig("cluster-b", "idc-b", "127.0.0.1:9877", Map.of()))
                .stressTest(new StressTestConfig(".load"))
                .topic(topic)
                .build();
    }
}
