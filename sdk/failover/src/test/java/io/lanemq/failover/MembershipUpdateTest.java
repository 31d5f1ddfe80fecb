package io.lanemq.failover;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.support.FakeClock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MembershipUpdateTest {

    private final FakeClock ticker = new FakeClock();
    private final WeightedFailover<String> failover = WeightedFailover.<String>builder()
            .ticker(ticker)
            .probeExecutor(new ProbingTest.ManualScheduler())
            .callee("a", 100)
            .callee("b", 100)
            .callee("gone", 100)
            .build();

    private CalleeStats<String> stats(String callee) {
        return failover.stats().stream().filter(s -> s.callee().equals(callee)).findFirst().orElseThrow();
    }

    private static Map<String, WeightSpec> specs(Object... pairs) {
        Map<String, WeightSpec> specs = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            specs.put((String) pairs[i], (WeightSpec) pairs[i + 1]);
        }
        return specs;
    }

    @Test
    void updateKeepsLearnedStateOfCalleesThatStay() {
        failover.pick(Set.of("b", "gone")).orElseThrow().onFailure();
        failover.pick(Set.of("b", "gone")).orElseThrow().onFailure();
        failover.pick(Set.of("a", "gone")).orElseThrow().onSuccess(Duration.ofMillis(7));
        Lease<String> held = failover.pick(Set.of("b", "gone")).orElseThrow();
        assertThat(stats("a").currentWeight()).isEqualTo(25);

        failover.update(specs("a", WeightSpec.of(200), "b", WeightSpec.of(100), "new", WeightSpec.of(50).withInitialWeight(5)));

        // a keeps its health as a fraction of max: 25/100 becomes 50/200.
        assertThat(stats("a").currentWeight()).isEqualTo(50);
        assertThat(stats("a").inFlight()).isEqualTo(1);
        assertThat(stats("b").ewmaLatency()).hasValue(Duration.ofMillis(7));
        assertThat(stats("new").currentWeight()).isEqualTo(5);
        assertThat(failover.stats()).extracting(CalleeStats::callee).containsExactly("a", "b", "new");

        held.onSuccessNanos(1_000_000);
        assertThat(stats("a").inFlight()).isZero();
        assertThat(stats("a").currentWeight()).isEqualTo(52);
    }

    @Test
    void aDownCalleeStaysDownAcrossAnUpdate() {
        failover.markDown("a");

        failover.update(specs("a", WeightSpec.of(100).withMinWeight(10), "b", WeightSpec.of(100)));

        assertThat(stats("a").down()).isTrue();
    }

    @Test
    void maxWeightZeroDisablesAndRestoringStartsAtInitialWeight() {
        failover.update(specs("a", WeightSpec.of(0), "b", WeightSpec.of(100)));
        for (int i = 0; i < 100; i++) {
            Lease<String> lease = failover.pick().orElseThrow();
            assertThat(lease.callee()).isEqualTo("b");
            lease.onIgnore();
        }
        assertThat(stats("a").down()).as("disabled is not down: nothing to probe").isFalse();

        failover.update(specs("a", WeightSpec.of(100).withInitialWeight(30), "b", WeightSpec.of(100)));

        assertThat(stats("a").currentWeight()).isEqualTo(30);
    }

    @Test
    void leasesOnRemovedCalleesCompleteHarmlessly() {
        Lease<String> held = failover.pick(Set.of("a", "b")).orElseThrow();

        failover.update(specs("a", WeightSpec.of(100)));
        held.onFailure();

        assertThat(failover.stats()).extracting(CalleeStats::callee).containsExactly("a");
        assertThat(stats("a").currentWeight()).isEqualTo(100);
    }
}
