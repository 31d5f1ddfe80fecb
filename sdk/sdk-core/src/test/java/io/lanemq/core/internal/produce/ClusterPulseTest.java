package io.lanemq.core.internal.produce;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.support.FakeClock;
import io.lanemq.support.Ticker;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Only a quick answer of another cluster, since the attempt started, is evidence against the attempt's cluster; any
 * answer of the cluster itself shows its connection is not stalled, and a cluster that never answered is cold.
 */
class ClusterPulseTest {
    private static final long QUICK = 50_000_000;

    private final ClusterPulse pulse = new ClusterPulse(Ticker.system());

    @Test
    void aQuickAnswerOfAnotherClusterSinceTheAttemptStartedCounts() {
        long attemptStart = System.nanoTime();
        pulse.answered("cluster-a", QUICK, QUICK);

        assertThat(pulse.otherAnsweredSince("cluster-b", attemptStart)).isTrue();
        assertThat(pulse.otherAnsweredSince("cluster-a", attemptStart)).as("its own answers are no evidence").isFalse();
    }

    @Test
    void aSlowAnswerOrOneBeforeTheAttemptStartedDoesNotCount() {
        pulse.answered("cluster-a", QUICK + 1, QUICK);
        assertThat(pulse.otherAnsweredSince("cluster-b", Long.MIN_VALUE / 2)).as("slow answer").isFalse();

        pulse.answered("cluster-a", 1, QUICK);
        long attemptStart = System.nanoTime() + 1; // strictly after, even on a clock that repeats a reading
        assertThat(pulse.otherAnsweredSince("cluster-b", attemptStart)).as("answered before the attempt started").isFalse();
    }

    @Test
    void aClusterIsSilentWhenItAnsweredBeforeTheAttemptAndNothingSince() {
        FakeClock clock = new FakeClock();
        ClusterPulse pulse = new ClusterPulse(clock);
        assertThat(pulse.silentSince("cluster-a", clock.read())).as("never answered: cold, not silent").isFalse();
        long coldStart = clock.read();
        assertThat(pulse.answeredBefore("cluster-a", coldStart)).isFalse();

        clock.advance(Duration.ofMillis(1));
        pulse.answered("cluster-a", 10 * QUICK, QUICK);
        clock.advance(Duration.ofMillis(1));
        long attemptStart = clock.read();
        assertThat(pulse.answeredBefore("cluster-a", coldStart)).as("its first answer came after that attempt started: still cold for it")
                .isFalse();
        assertThat(pulse.answeredBefore("cluster-a", attemptStart)).isTrue();
        assertThat(pulse.silentSince("cluster-a", attemptStart)).as("answered before, nothing since").isTrue();
        assertThat(pulse.silentSince("cluster-b", attemptStart)).as("another cluster's answers").isFalse();

        clock.advance(Duration.ofMillis(1));
        pulse.answered("cluster-a", 10 * QUICK, QUICK);
        assertThat(pulse.silentSince("cluster-a", attemptStart)).as("a slow answer since is an answer").isFalse();
        assertThat(pulse.answeredBefore("cluster-a", coldStart)).as("the first answer is kept, not the latest").isFalse();
    }

    @Test
    void patienceFollowsTheClustersOwnAnswerTimesBetweenTheFloorAndTheCeiling() {
        long floor = Duration.ofMillis(250).toNanos();
        long ceiling = Duration.ofSeconds(1).toNanos();
        assertThat(pulse.patienceNanos("cluster-a", floor, ceiling)).as("no answer yet: the floor").isEqualTo(floor);

        for (int i = 0; i < 20; i++) {
            pulse.answered("cluster-a", Duration.ofMillis(2).toNanos(), QUICK);
        }
        assertThat(pulse.patienceNanos("cluster-a", floor, ceiling)).as("answers in 2 ms: the floor").isEqualTo(floor);

        for (int i = 0; i < 20; i++) {
            pulse.answered("cluster-b", Duration.ofMillis(i % 2 == 0 ? 50 : 300).toNanos(), QUICK);
        }
        long busy = pulse.patienceNanos("cluster-b", floor, ceiling);
        assertThat(busy).as("answers of 50-300 ms: their mean plus four deviations (about 175 + 4 x 125 ms)")
                .isBetween(Duration.ofMillis(500).toNanos(), Duration.ofMillis(800).toNanos());
        assertThat(pulse.patienceNanos("cluster-a", floor, ceiling)).as("per cluster").isEqualTo(floor);

        for (int i = 0; i < 5; i++) {
            pulse.answered("cluster-b", Duration.ofSeconds(3).toNanos(), QUICK);
        }
        assertThat(pulse.patienceNanos("cluster-b", floor, ceiling)).as("never past the ceiling").isEqualTo(ceiling);

        for (int i = 0; i < 60; i++) {
            pulse.answered("cluster-b", Duration.ofMillis(2).toNanos(), QUICK);
        }
        assertThat(pulse.patienceNanos("cluster-b", floor, ceiling)).as("fast again: back to the floor").isEqualTo(floor);
    }
}
