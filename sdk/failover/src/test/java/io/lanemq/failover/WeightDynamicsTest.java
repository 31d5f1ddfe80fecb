package io.lanemq.failover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.lanemq.support.FakeClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WeightDynamicsTest {

    private final FakeClock ticker = new FakeClock();
    private final List<WeightedFailover<String>> built = new ArrayList<>();

    @AfterEach
    void closeProbers() {
        built.forEach(WeightedFailover::close);
    }

    private WeightedFailover<String> failover(WeightSpec spec) {
        WeightedFailover<String> failover = WeightedFailover.<String>builder()
                .latency(LatencyPolicy.disabled())
                .ticker(ticker)
                .callee("a", spec)
                .build();
        built.add(failover);
        return failover;
    }

    private static void fail(WeightedFailover<String> failover, int times) {
        for (int i = 0; i < times; i++) {
            failover.pick().orElseThrow().onFailure();
        }
    }

    private static void succeed(WeightedFailover<String> failover, int times) {
        for (int i = 0; i < times; i++) {
            failover.pick().orElseThrow().onSuccessNanos(1_000_000);
        }
    }

    private static double weight(WeightedFailover<String> failover) {
        return failover.stats().get(0).currentWeight();
    }

    @Test
    void failureHalvesTheWeightAndStopsAtTheMinimum() {
        WeightedFailover<String> failover = failover(WeightSpec.of(100).withMinWeight(10));

        fail(failover, 1);
        assertThat(weight(failover)).isEqualTo(50);
        fail(failover, 1);
        assertThat(weight(failover)).isEqualTo(25);
        fail(failover, 1);
        assertThat(weight(failover)).isEqualTo(12.5);
        fail(failover, 5);
        assertThat(weight(failover)).isEqualTo(10);
        assertThat(failover.stats().get(0).down()).isFalse();
        assertThat(failover.pick()).isPresent();
    }

    @Test
    void failureFactorIsConfigurable() {
        WeightedFailover<String> failover = WeightedFailover.<String>builder()
                .latency(LatencyPolicy.disabled())
                .failureFactor(0.8)
                .callee("a", 100)
                .build();

        fail(failover, 1);

        assertThat(weight(failover)).isEqualTo(80);
    }

    @Test
    void withMinimumZeroEnoughFailuresTakeTheCalleeDown() {
        WeightedFailover<String> failover = failover(WeightSpec.of(100));

        // 100 -> 50 -> ... -> 1.5625 -> 0.78 is below the 1% down threshold.
        fail(failover, 6);
        assertThat(weight(failover)).isEqualTo(1.5625);
        fail(failover, 1);

        CalleeStats<String> a = failover.stats().get(0);
        assertThat(a.currentWeight()).isZero();
        assertThat(a.down()).isTrue();
        assertThat(failover.pick()).isEmpty();
    }

    @Test
    void successRegainsOnePercentOfMaxPerCallUpToMax() {
        WeightedFailover<String> failover = failover(WeightSpec.of(200).withMinWeight(20));
        fail(failover, 10);
        assertThat(weight(failover)).isEqualTo(20);

        succeed(failover, 1);
        assertThat(weight(failover)).isEqualTo(22);
        succeed(failover, 49);
        assertThat(weight(failover)).isEqualTo(120, offset(1e-9));
        succeed(failover, 100);
        assertThat(weight(failover)).isEqualTo(200);
    }

    @Test
    void initialWeightWarmsUpToMax() {
        WeightedFailover<String> failover = failover(WeightSpec.of(100).withInitialWeight(10));
        assertThat(weight(failover)).isEqualTo(10);

        succeed(failover, 45);
        assertThat(weight(failover)).isEqualTo(55, offset(1e-9));
        succeed(failover, 100);
        assertThat(weight(failover)).isEqualTo(100);
    }

    @Test
    void markDownOverridesTheMinimumAndSuccessesDoNotRevive() {
        WeightedFailover<String> failover = failover(WeightSpec.of(100).withMinWeight(50));
        Lease<String> lateLease = failover.pick().orElseThrow();

        assertThat(failover.markDown("a")).isTrue();
        assertThat(failover.markDown("a")).isFalse();
        lateLease.onSuccessNanos(1_000);

        assertThat(failover.stats().get(0).down()).isTrue();
        assertThat(failover.pick()).isEmpty();
        assertThat(failover.markDown("unknown")).isFalse();
    }
}
