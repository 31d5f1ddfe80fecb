package io.lanemq.core.internal.consume;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** What a DIRECT subscription shows in the registry: each cluster consumer's topic and threads, and a drain after a move. */
class DirectConsumptionMetersTest {
    private static final Subscription BILLING = Subscription.builder("order-paid", "billing").build();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final SdkMetrics metrics = new SdkMetrics(registry, "app");

    @Test
    void eachClusterConsumerShowsItsPhysicalTopicAndThreadsAndAMoveDrainsTheOldTopicVisibly() throws Exception {
        DirectConsumption direct = DirectConsumption.start(BILLING, "1-1", message -> ConsumeResult.SUCCESS, new NullBinding(),
                metrics, Ticker.system(), plan("order_paid", 2));
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
            plan.put(cluster, BoundConsumerSpec.builder(new ClusterEndpoint(cluster, "idc-" + cluster, "127.0.0.1:9876", Map.of()), "billing", topic)
                    .consumeThreads(threads).build());
        }
        return plan;
    }

    /** Consumers that consume nothing and never know their backlog. */
    private static final class NullBinding implements MessagingBinding {
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
