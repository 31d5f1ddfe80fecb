package io.lanemq.failover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Set;
import org.junit.jupiter.api.Test;

class PriorityGroupsTest {

    private final WeightedFailover<String> failover = WeightedFailover.<String>builder()
            .latency(LatencyPolicy.disabled())
            .probeExecutor(new ProbingTest.ManualScheduler())
            .callee("local", WeightSpec.of(100))
            .callee("remote", WeightSpec.of(100).withPriority(1))
            .build();

    private double shareOf(String callee, int picks) {
        int hits = 0;
        for (int i = 0; i < picks; i++) {
            Lease<String> lease = failover.pick().orElseThrow();
            if (lease.callee().equals(callee)) {
                hits++;
            }
            lease.onIgnore();
        }
        return (double) hits / picks;
    }

    @Test
    void healthyPreferredGroupTakesEverything() {
        assertThat(shareOf("local", 10_000)).isEqualTo(1.0);
    }

    @Test
    void trafficSpillsInProportionToLostHealth() {
        failover.pick(Set.of("remote")).orElseThrow().onFailure();

        // Health 0.5 x factor 1.4: local keeps 70%.
        assertThat(shareOf("local", 50_000)).isCloseTo(0.7, within(0.015));
    }

    @Test
    void downPreferredGroupSendsEverythingOnAndExcludeSkipsAGroup() {
        assertThat(failover.pick(Set.of("local")).orElseThrow().callee()).isEqualTo("remote");

        failover.markDown("local");

        assertThat(shareOf("remote", 1_000)).isEqualTo(1.0);
        assertThat(failover.pick(Set.of("remote"))).isEmpty();
    }
}
