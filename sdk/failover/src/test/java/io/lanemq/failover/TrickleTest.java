package io.lanemq.failover;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.support.FakeClock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A slow or just revived callee gets calls counted in absolute terms, not a share of the rate. */
class TrickleTest {

    private final FakeClock ticker = new FakeClock();

    private WeightedFailover<String> failover() {
        return failover(LatencyPolicy.ofDefaults());
    }

    private WeightedFailover<String> failover(LatencyPolicy policy) {
        return WeightedFailover.<String>builder().ticker(ticker).latency(policy)
                .callee("healthy", 100)
                .callee("lossy", 100)
                .build();
    }

    /** What four synchronous callers did over a simulated run; per-second counts from the 4th second on (the
     * latency judge has called the lossy callee slow by then). */
    private record Load(long[] lossyPerSecond, long[] callsPerSecond, int[] mostLossyInFlightPerSecond) {
        /** The most callers the lossy callee held at once, from second {@code from} (of the counted ones) on. */
        int mostLossyInFlight(int from) {
            return Arrays.stream(mostLossyInFlightPerSecond, from, mostLossyInFlightPerSecond.length).max().orElse(0);
        }

        int mostLossyInFlight() {
            return mostLossyInFlight(0);
        }
    }

    /**
     * Four callers, each calling again as soon as its call ends: a healthy call takes {@code fastNanos}, a call to
     * "lossy" takes as long, except every fifth one, which waits 250 ms (a TCP retransmission after a lost
     * packet). Time moves in steps of {@code fastNanos}, so the faster the calls, the higher the rate.
     */
    private Load run(WeightedFailover<String> failover, long fastNanos, int seconds) {
        return run(failover, fastNanos, seconds, second -> 5);
    }

    /** As above, every {@code slowEvery.applyAsInt(second)}-th call to "lossy" waiting 250 ms. */
    private Load run(WeightedFailover<String> failover, long fastNanos, int seconds, IntUnaryOperator slowEvery) {
        long second = Duration.ofSeconds(1).toNanos();
        long start = ticker.read();
        int callers = 4;
        long[] busyUntil = new long[callers];
        long[] latency = new long[callers];
        @SuppressWarnings("unchecked")
        Lease<String>[] leases = new Lease[callers];
        long[] lossy = new long[seconds];
        long[] calls = new long[seconds];
        int lossyCalls = 0;
        int[] mostLossyInFlight = new int[seconds];
        while (ticker.read() - start < seconds * second) {
            long now = ticker.read();
            int s = (int) ((now - start) / second);
            for (int c = 0; c < callers; c++) {
                if (leases[c] != null && now - busyUntil[c] < 0) {
                    continue;
                }
                if (leases[c] != null) {
                    leases[c].onSuccessNanos(latency[c]);
                    calls[s]++;
                }
                leases[c] = failover.pick().orElseThrow();
                boolean toLossy = leases[c].callee().equals("lossy");
                latency[c] = toLossy && ++lossyCalls % slowEvery.applyAsInt(s) == 0 ? Duration.ofMillis(250).toNanos() : fastNanos;
                busyUntil[c] = now + latency[c];
                if (toLossy) {
                    lossy[s]++;
                }
            }
            int lossyInFlight = 0;
            for (Lease<String> lease : leases) {
                lossyInFlight += lease.callee().equals("lossy") ? 1 : 0;
            }
            mostLossyInFlight[s] = Math.max(mostLossyInFlight[s], lossyInFlight);
            ticker.advance(Duration.ofNanos(fastNanos));
        }
        return new Load(Arrays.copyOfRange(lossy, 3, seconds), Arrays.copyOfRange(calls, 3, seconds),
                Arrays.copyOfRange(mostLossyInFlight, 3, seconds));
    }

    @Test
    void aSlowCalleesCallsStayATrickleHoweverFastTheTrafficAndHoldOneCallerAtMost() {
        Load slowRate = run(failover(), Duration.ofMillis(1).toNanos(), 8);
        Load fastRate = run(failover(), Duration.ofMillis(1).toNanos() / 10, 8);

        assertThat(Arrays.stream(slowRate.callsPerSecond()).min().orElse(0)).as("calls per second at the slow rate: %s",
                Arrays.toString(slowRate.callsPerSecond())).isGreaterThan(3_000);
        assertThat(Arrays.stream(fastRate.callsPerSecond()).min().orElse(0)).as("calls per second at the fast rate: %s",
                Arrays.toString(fastRate.callsPerSecond())).isGreaterThan(30_000);
        // At the slow floor alone (1% of the picks) the lossy callee would take ~40 calls a second at the slow
        // rate and ~400 at the fast one.
        assertThat(Arrays.stream(slowRate.lossyPerSecond()).boxed()).as("calls to the lossy callee per second, ~4,000 calls/s")
                .allSatisfy(n -> assertThat(n).isBetween(1L, 5L));
        assertThat(Arrays.stream(fastRate.lossyPerSecond()).boxed()).as("calls to the lossy callee per second, ~40,000 calls/s")
                .allSatisfy(n -> assertThat(n).isBetween(1L, 5L));
        assertThat(fastRate.mostLossyInFlight()).as("callers held by the lossy callee at once").isEqualTo(1);
    }

    @Test
    void aCalleeWhoseAverageHoversAtTheSlowLineStaysOnTheTrickle() {
        // The SDK's policy: slow at 3x the best peer and 50 ms more. A fifth of the lossy callee's calls wait 250 ms,
        // so its average sits about at the line, and a few seconds of fast trials could let it back onto a share.
        LatencyPolicy sdk = LatencyPolicy.custom().slowRatio(3.0).slowMargin(Duration.ofMillis(50)).build();

        // When an average right at the line first crosses it would depend on the random picks: for the first 3 s
        // every other call waits, which puts it clearly above the line, then a fifth, which keeps it about there.
        Load load = run(failover(sdk), Duration.ofMillis(1).toNanos(), 30, second -> second < 3 ? 2 : 5);

        long[] lossy = load.lossyPerSecond();
        int first = IntStream.range(0, lossy.length).filter(s -> lossy[s] <= 5).findFirst().orElse(lossy.length);
        assertThat(first).as("seconds from the 4th until it is first on the trickle: %s", Arrays.toString(lossy)).isLessThan(2);
        assertThat(Arrays.stream(lossy, first, lossy.length).boxed()).as("calls to the lossy callee per second from then on: %s",
                Arrays.toString(lossy)).allSatisfy(n -> assertThat(n).isBetween(1L, 5L));
        // Calls made just before it went on the trickle may still be out during that first second.
        assertThat(load.mostLossyInFlight(first + 1)).as("callers held by the lossy callee at once from the next second on")
                .isEqualTo(1);
    }

    @Test
    void aLimitedCalleeTakesOneCallAtATimeAndOnePerInterval() {
        WeightedFailover<String> failover = failover();
        failover.markDown("lossy");
        ticker.advance(Duration.ofSeconds(1));
        assertThat(failover.checkNow()).as("the probe revives it, at the recovery weight").isEqualTo(1);

        Lease<String> trial = pickUntil(failover, "lossy", 1_000);
        for (int i = 0; i < 1_000; i++) {
            ticker.advance(Duration.ofMillis(1));
            Lease<String> lease = failover.pick().orElseThrow();
            assertThat(lease.callee()).as("pick %d while the trial is out", i).isEqualTo("healthy");
            lease.onSuccessNanos(1_000_000);
        }
        trial.onSuccessNanos(1_000_000);
        // Admitted again (a second since the trial started, none out), it is picked by weight: 11 against 100.
        pickUntil(failover, "lossy", 1_000).onSuccessNanos(1_000_000);
        ticker.advance(Duration.ofMillis(199));
        for (int i = 0; i < 100; i++) {
            Lease<String> lease = failover.pick().orElseThrow();
            assertThat(lease.callee()).as("within 200 ms of the last trial").isEqualTo("healthy");
            lease.onSuccessNanos(1_000_000);
        }
    }

    @Test
    void aRevivedCalleeEarnsItsShareBackByAnsweringWell() {
        WeightedFailover<String> failover = failover();
        failover.markDown("lossy");
        ticker.advance(Duration.ofSeconds(1));
        failover.checkNow();

        long[] lossyPerSecond = new long[4];
        for (int ms = 0; ms < 4_000; ms++) {
            ticker.advance(Duration.ofMillis(1));
            for (int call = 0; call < 10; call++) {
                Lease<String> lease = failover.pick().orElseThrow();
                lossyPerSecond[ms / 1_000] += lease.callee().equals("lossy") ? 1 : 0;
                lease.onSuccessNanos(1_000_000);
            }
        }
        assertThat(lossyPerSecond[0]).as("first second after the revival, 10,000 calls: a trickle (%s)",
                Arrays.toString(lossyPerSecond)).isBetween(1L, 5L);
        assertThat(lossyPerSecond[3]).as("fourth second, after ten good answers (%s)", Arrays.toString(lossyPerSecond))
                .isGreaterThan(2_000L);
    }

    @Test
    void limitedCalleesTakeEveryPickWhenNoOtherIsLeft() {
        WeightedFailover<String> failover = failover();
        failover.markDown("lossy");
        ticker.advance(Duration.ofSeconds(1));
        failover.checkNow();

        Lease<String> held = pickUntil(failover, "lossy", 1_000);
        for (int i = 0; i < 10; i++) {
            assertThat(failover.pick(Set.of("healthy")).orElseThrow().callee())
                    .as("a retry that already tried the healthy callee, with a trial still out").isEqualTo("lossy");
        }
        held.onIgnore();
    }

    private Lease<String> pickUntil(WeightedFailover<String> failover, String callee, int attempts) {
        for (int i = 0; i < attempts; i++) {
            Lease<String> lease = failover.pick().orElseThrow();
            if (lease.callee().equals(callee)) {
                return lease;
            }
            lease.onSuccessNanos(1_000_000);
        }
        throw new AssertionError(callee + " not picked in " + attempts + " picks");
    }
}
