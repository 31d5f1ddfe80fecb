package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class DeliveryCountersTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final DeliveryCounters counters = new DeliveryCounters(new ProxyMetrics(registry), new GroupKey("orders", "billing"));

    @Test
    void eachConsumerCountsInTheRegistryUnderItsOwnTagAndLeavesItWhenForgotten() {
        counters.of("c1").increment();
        counters.of("c1").increment();
        counters.of("c2").increment();

        assertThat(registry.get(ProxyMetrics.DELIVERIES).tag("consumer", "c1").counter().count()).isEqualTo(2);
        assertThat(registry.get(ProxyMetrics.DELIVERIES).tag("consumer", "c2").counter().count()).isEqualTo(1);

        counters.forget("c1");
        counters.forget("c1"); // a second leave is harmless

        assertThat(registry.find(ProxyMetrics.DELIVERIES).tag("consumer", "c1").counter()).as("c1's meter").isNull();
        assertThat(registry.find(ProxyMetrics.DELIVERIES).counters()).as("meters left").hasSize(1);
        assertThat(counters.of("c1").count()).as("a consumer that comes back starts again").isZero();
    }
}
