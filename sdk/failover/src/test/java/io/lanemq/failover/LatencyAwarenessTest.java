package io.lanemq.failover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.lanemq.support.FakeClock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LatencyAwarenessTest {

    private final FakeClock ticker = new FakeClock();

    private WeightedFailover<String> failover(LatencyPolicy policy, String... callees) {
        WeightedFailover.Builder<String> builder = WeightedFailover.<String>builder().ticker(ticker).latency(policy);
        for (String callee : callees) {
            builder.callee(callee, 100);
        }
        return builder.build();
    }

    /**
     * Sends one call per simulated millisecond for {@code duration}, each taking the latency
     * given for its callee, and returns the share of the calls that went to {@code watched}
     * during the last second.
     */
    private double run(WeightedFailover<String> failover, Duration duration, Map<String, Duration> latencies,
            String watched) {
        long steps = duration.toMillis();
        int lastSecond = 0;
        int watchedInLastSecond = 0;
        for (long step = 0; step < steps; step++) {
            ticker.advance(Duration.ofMillis(1));
            Lease<String> lease = failover.pick().orElseThrow();
            lease.onSuccess(latencies.get(lease.callee()));
            if (step >= steps - 1_000) {
                lastSecond++;
                if (lease.callee().equals(watched)) {
                    watchedInLastSecond++;
                }
            }
        }
        return (double) watchedInLastSecond / lastSecond;
    }

    @Test
    void slowCalleeLosesShareAndRegainsItWhenLatencyReturns() {
        WeightedFailover<String> failover = failover(LatencyPolicy.ofDefaults(), "fast", "slow");

        double slowShare = run(failover, Duration.ofSeconds(10),
                Map.of("fast", Duration.ofMillis(5), "slow", Duration.ofMillis(105)), "slow");

        assertThat(slowShare).isLessThan(0.10);
        CalleeStats<String> slow = failover.stats().get(1);
        assertThat(slow.slow()).isTrue();
        assertThat(slow.down()).as("slowness never takes a callee down").isFalse();
        assertThat(slow.ewmaLatency()).hasValueSatisfying(
                ewma -> assertThat(ewma).isGreaterThan(Duration.ofMillis(50)));

        double recoveredShare = run(failover, Duration.ofSeconds(10),
                Map.of("fast", Duration.ofMillis(5), "slow", Duration.ofMillis(5)), "slow");

        assertThat(recoveredShare).isGreaterThan(0.40);
        assertThat(failover.stats().get(1).slow()).isFalse();
    }

    @Test
    void aSlowCalleeStaysSlowUntilItsAverageIsBelowHalfTheMargin() {
        WeightedFailover<String> failover = failover(LatencyPolicy.ofDefaults(), "fast", "slow");
        run(failover, Duration.ofSeconds(5), Map.of("fast", Duration.ofMillis(5), "slow", Duration.ofMillis(105)), "slow");
        assertThat(failover.stats().get(1).slow()).isTrue();

        // 15 ms above the baseline: below the 20 ms margin that made it slow, above half of it.
        run(failover, Duration.ofSeconds(10), Map.of("fast", Duration.ofMillis(5), "slow", Duration.ofMillis(20)), "slow");
        assertThat(failover.stats().get(1).slow()).as("an average between half the margin and the margin").isTrue();

        run(failover, Duration.ofSeconds(10), Map.of("fast", Duration.ofMillis(5), "slow", Duration.ofMillis(14)), "slow");
        assertThat(failover.stats().get(1).slow()).as("9 ms above the baseline, below half the margin").isFalse();
    }

    @Test
    void bothRatioAndMarginMustBeExceeded() {
        WeightedFailover<String> failover = failover(LatencyPolicy.ofDefaults(), "a", "b");

        // b is 3x slower but only 2 ms apart: below the 20 ms margin.
        double share = run(failover, Duration.ofSeconds(5),
                Map.of("a", Duration.ofMillis(1), "b", Duration.ofMillis(3)), "b");

        assertThat(share).isGreaterThan(0.40);
        assertThat(failover.stats()).allSatisfy(s -> assertThat(s.currentWeight()).isEqualTo(100));
    }

    @Test
    void calleesThatAreAllSlowAreNotPenalised() {
        WeightedFailover<String> failover = failover(LatencyPolicy.ofDefaults(), "a", "b");

        run(failover, Duration.ofSeconds(5), Map.of("a", Duration.ofMillis(300), "b", Duration.ofMillis(310)), "b");

        assertThat(failover.stats()).allSatisfy(s -> {
            assertThat(s.slow()).isFalse();
            assertThat(s.currentWeight()).isEqualTo(100);
        });
    }

    @Test
    void medianBaselineIgnoresOneUnusuallyFastPeer() {
        LatencyPolicy median = LatencyPolicy.custom().baseline(LatencyPolicy.Baseline.MEDIAN).build();
        WeightedFailover<String> failover = failover(median, "fast", "b", "c", "d");

        // Against BEST (2 ms) the 40 ms callees would all be slow; against the median they are peers.
        run(failover, Duration.ofSeconds(5), Map.of("fast", Duration.ofMillis(2), "b", Duration.ofMillis(40),
                "c", Duration.ofMillis(40), "d", Duration.ofMillis(45)), "b");

        assertThat(failover.stats()).allSatisfy(s -> assertThat(s.slow()).isFalse());
    }

    @Test
    void averageDecaysByHalfLife() {
        LatencyPolicy policy = LatencyPolicy.custom().halfLife(Duration.ofSeconds(2)).build();
        WeightedFailover<String> failover = failover(policy, "a");

        failover.pick().orElseThrow().onSuccess(Duration.ofMillis(100));
        ticker.advance(Duration.ofSeconds(2));
        failover.pick().orElseThrow().onSuccess(Duration.ofMillis(20));

        // One half-life later the old value weighs half: (100 + 20) / 2.
        assertThat(failover.stats().get(0).ewmaLatencyNanos()).isCloseTo(60_000_000L, within(1_000L));
    }

    @Test
    void disabledPolicyIgnoresLatency() {
        WeightedFailover<String> failover = failover(LatencyPolicy.disabled(), "fast", "slow");

        double slowShare = run(failover, Duration.ofSeconds(5),
                Map.of("fast", Duration.ofMillis(1), "slow", Duration.ofSeconds(1)), "slow");

        assertThat(slowShare).isGreaterThan(0.40);
        assertThat(failover.stats().get(1).ewmaLatency()).isEmpty();
    }
}
