package io.lanemq.core.internal.consume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Subscription;
import io.lanemq.api.spi.BoundConsumer;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.api.spi.BoundListener;
import io.lanemq.api.spi.BoundProducer;
import io.lanemq.api.spi.BoundProducerSpec;
import io.lanemq.api.spi.ClusterEndpoint;
import io.lanemq.api.spi.MessagingBinding;
import io.lanemq.core.metrics.SdkMetrics;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.lanemq.support.Ticker;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What a DIRECT subscription shows in the registry: each cluster consumer's topic and threads, a drain after a move, and each
 * cluster's lag over the topics its consumer reads.
 */
class DirectConsumptionMetersTest {
    private static final Subscription BILLING = Subscription.builder("order-paid", "billing").build();
    private static final Duration WAIT = Duration.ofSeconds(10);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final SdkMetrics metrics = new SdkMetrics(registry, "app");

    @Test
    void eachClusterConsumerShowsItsPhysicalTopicAndThreadsAndAMoveDrainsTheOldTopicVisibly() throws Exception {
        DirectConsumption direct = DirectConsumption.start(BILLING, "1-1", message -> ConsumeResult.SUCCESS, new NullBinding(),
                metrics, Ticker.system(), plan("order_paid", 2), DirectConsumption.LAG_EVERY);
        assertThat(threadsByClusterAndTopic()).containsExactlyInAnyOrderEntriesOf(
                Map.of("cluster-a/order_paid", 2.0, "cluster-b/order_paid", 2.0));
        assertThat(draining()).as("nothing to drain before a move").isZero();

        direct.apply(plan("order_paid_v2", 6), Duration.ofHours(1));

        assertThat(threadsByClusterAndTopic()).as("only the consumers that run now")
                .containsExactlyInAnyOrderEntriesOf(Map.of("cluster-a/order_paid_v2", 6.0, "cluster-b/order_paid_v2", 6.0));
        assertThat(draining()).as("the old topic's backlog is unknown, so both clusters drain it").isEqualTo(2.0);

        direct.close();
        assertThat(registry.find(SdkMetrics.DIRECT_THREADS).gauges()).as("gauges leave with the consumers").isEmpty();
        assertThat(registry.find(SdkMetrics.DIRECT_DRAINING).gauges()).isEmpty();
    }

    @Test
    void aClustersLagSumsItsTopicItsShadowTopicAndTheTopicItDrainsAndIsUnknownWhileAnyOfThemIs() throws Exception {
        Map<String, Long> backlogs = new ConcurrentHashMap<>(Map.of("order_paid", 3L, "order_paid_SHADOW", 2L, "order_paid_old", 4L,
                "order_paid_b", 1L));
        Map<String, BoundConsumerSpec> plan = new LinkedHashMap<>();
        plan.put("cluster-a", BoundConsumerSpec.builder(endpoint("cluster-a"), "billing", "order_paid")
                .shadowTopics(List.of("order_paid_SHADOW")).drainTopics(List.of("order_paid_old")).build());
        plan.put("cluster-b", BoundConsumerSpec.builder(endpoint("cluster-b"), "billing", "order_paid_b").build());
        MessagingBinding binding = new NullBinding() {
            @Override
            public BoundConsumer createConsumer(BoundConsumerSpec spec, BoundListener listener) {
                return new BoundConsumer() {
                    @Override
                    public OptionalLong backlog(String topic) {
                        Long backlog = backlogs.get(topic);
                        return backlog == null ? OptionalLong.empty() : OptionalLong.of(backlog);
                    }

                    @Override
                    public void close() {
                    }
                };
            }
        };

        try (DirectConsumption direct = DirectConsumption.start(BILLING, "1-1", message -> ConsumeResult.SUCCESS, binding, metrics,
                Ticker.system(), plan, Duration.ofMillis(20))) {
            await().atMost(WAIT).until(() -> lag("cluster-a") == 9.0 && lag("cluster-b") == 1.0);

            backlogs.remove("order_paid_SHADOW");
            await("one topic it cannot tell makes the cluster's lag unknown, not smaller").atMost(WAIT)
                    .until(() -> Double.isNaN(lag("cluster-a")));
            assertThat(lag("cluster-b")).isEqualTo(1.0);
        }
        assertThat(registry.find(SdkMetrics.CONSUMER_LAG).gauges()).as("gauges leave with the consumers").isEmpty();
    }

    private double lag(String cluster) {
        return registry.get(SdkMetrics.CONSUMER_LAG).tag(SdkMetrics.TAG_SUBSCRIPTION, "1-1").tag(SdkMetrics.TAG_CLUSTER, cluster)
                .gauge().value();
    }

    private static ClusterEndpoint endpoint(String cluster) {
        return new ClusterEndpoint(cluster, "idc-" + cluster, "127.0.0.1:9876", Map.of());
    }

    private Map<String, Double> threadsByClusterAndTopic() {
        return registry.find(SdkMetrics.DIRECT_THREADS).tag(SdkMetrics.TAG_SUBSCRIPTION, "1-1").gauges().stream()
                .collect(Collectors.toMap(g -> g.getId().getTag(SdkMetrics.TAG_CLUSTER) + "/"
                        + g.getId().getTag(SdkMetrics.TAG_PHYSICAL_TOPIC), Gauge::value));
    }

    private double draining() {
        return registry.get(SdkMetrics.DIRECT_DRAINING).tag(SdkMetrics.TAG_GROUP, "billing").gauge().value();
    }

    private static Map<String, BoundConsumerSpec> plan(String topic, int threads) {
        Map<String, BoundConsumerSpec> plan = new LinkedHashMap<>();
        for (String cluster : List.of("cluster-a", "cluster-b")) {
            plan.put(cluster, BoundConsumerSpec.builder(endpoint(cluster), "billing", topic)
                    .consumeThreads(threads).build());
        }
        return plan;
    }

    /** Consumers that consume nothing and never know their backlog. */
    private static class NullBinding implements MessagingBinding {
        @Override
        public String name() {
            return "null";
        }

        @Override
        public BoundProducer createProducer(BoundProducerSpec spec) {
            throw new UnsupportedOperationException("consumers only");
        }

        @Override
        public BoundConsumer createConsumer(BoundConsumerSpec spec, BoundListener listener) {
            return () -> { };
        }
    }
}
