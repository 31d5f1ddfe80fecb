package io.lanemq.failover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.lanemq.support.FakeClock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SelectionTest {

    private static WeightedFailover.Builder<String> builder() {
        return WeightedFailover.<String>builder().latency(LatencyPolicy.disabled()).ticker(new FakeClock());
    }

    private static Map<String, Integer> countPicks(WeightedFailover<String> failover, int picks) {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < picks; i++) {
            Lease<String> lease = failover.pick().orElseThrow();
            counts.merge(lease.callee(), 1, Integer::sum);
            lease.onIgnore();
        }
        return counts;
    }

    @Test
    void picksInProportionToWeight() {
        WeightedFailover<String> failover = builder().callee("a", 100).callee("b", 300).callee("c", 600).build();

        Map<String, Integer> counts = countPicks(failover, 100_000);

        assertThat(counts.get("a") / 100_000.0).isCloseTo(0.1, within(0.01));
        assertThat(counts.get("b") / 100_000.0).isCloseTo(0.3, within(0.01));
        assertThat(counts.get("c") / 100_000.0).isCloseTo(0.6, within(0.01));
    }

    @Test
    void inFlightCallsLowerTheShare() {
        WeightedFailover<String> failover = builder().callee("a", 100).callee("b", 100).build();
        List<Lease<String>> held = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            held.add(failover.pick(Set.of("b")).orElseThrow());
        }

        Map<String, Integer> counts = countPicks(failover, 50_000);

        // a counts as 100 / (1 + 3) = 25 against b's 100: a fifth of the picks.
        assertThat(counts.get("a") / 50_000.0).isCloseTo(0.2, within(0.015));
        held.forEach(Lease::onIgnore);
        assertThat(failover.stats()).allSatisfy(s -> assertThat(s.inFlight()).isZero());
    }

    @Test
    void excludedCalleesAreNeverPicked() {
        WeightedFailover<String> failover = builder().callee("a", 100).callee("b", 100).callee("c", 100).build();

        for (int i = 0; i < 1_000; i++) {
            Lease<String> lease = failover.pick(Set.of("a", "c")).orElseThrow();
            assertThat(lease.callee()).isEqualTo("b");
            lease.onIgnore();
        }
        assertThat(failover.pick(Set.of("a", "b", "c"))).isEmpty();
    }

    @Test
    void nothingAvailableIsEmpty() {
        assertThat(builder().build().pick()).isEmpty();
        assertThat(builder().callee("off", 0).build().pick()).isEmpty();

        try (WeightedFailover<String> failover = builder().callee("a", 100).build()) {
            failover.markDown("a");
            assertThat(failover.pick()).isEmpty();
        }
    }

    @Test
    void onlyTheFirstOutcomeOfALeaseCounts() {
        WeightedFailover<String> failover = builder().callee("a", WeightSpec.of(100).withInitialWeight(50)).build();
        Lease<String> lease = failover.pick().orElseThrow();

        lease.onFailure();
        lease.onSuccessNanos(1_000);
        lease.onIgnore();

        CalleeStats<String> a = failover.stats().get(0);
        assertThat(a.currentWeight()).isEqualTo(25);
        assertThat(a.inFlight()).isZero();
    }
}
