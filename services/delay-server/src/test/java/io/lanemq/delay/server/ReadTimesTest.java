package io.lanemq.delay.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ReadTimesTest {

    private final ReadTimes times = new ReadTimes(1_000);

    @Test
    void anOffsetIsReadNoEarlierThanItsCheckpointAndLessThanAGranuleAfter() {
        times.read(10, 5_000);
        times.read(11, 5_400); // same granule: no checkpoint
        times.read(12, 6_100);
        times.read(20, 9_000);
        assertThat(times.size()).isEqualTo(3);
        assertThat(times.readAt(10)).isEqualTo(5_000);
        assertThat(times.readAt(11)).isEqualTo(5_000);
        assertThat(times.readAt(19)).isEqualTo(6_100);
        assertThat(times.readAt(25)).isEqualTo(9_000);
        assertThat(times.readAt(3)).isEqualTo(5_000); // below every checkpoint: the oldest
    }

    @Test
    void forgetsCheckpointsBelowTheLowestHeldOffsetButKeepsTheOneCoveringIt() {
        for (int i = 0; i < 100; i++) {
            times.read(i * 10L, i * 1_000L);
        }
        times.forgetBelow(555);
        assertThat(times.readAt(555)).isEqualTo(55_000);
        assertThat(times.size()).isEqualTo(45);
        times.read(2_000, 200_000);
        assertThat(times.readAt(2_001)).isEqualTo(200_000);
    }

    @Test
    void refusesAGranularityBelowOneMillisecond() {
        assertThatThrownBy(() -> new ReadTimes(0)).hasMessageContaining("granularityMillis");
    }
}
