package io.lanemq.delay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TimingWheelTest {

    private static WheelEntry entry(long fireAt) {
        return new WheelEntry(null, 0, 0, fireAt);
    }

    @Test
    void everyEntryFiresAtItsExactMillisecondWhenTimeMovesOneTickAtATime() {
        long start = 1_000_003L;
        TimingWheel wheel = new TimingWheel(start);
        Random random = new Random(7);
        List<WheelEntry> due = new ArrayList<>();
        List<WheelEntry> all = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            WheelEntry e = entry(start + 1 + random.nextInt(300_000));
            all.add(e);
            wheel.add(e, due);
        }
        assertThat(due).isEmpty();
        int fired = 0;
        for (long t = start + 1; t <= start + 300_001; t++) {
            wheel.advance(t, due);
            for (WheelEntry e : due) {
                assertThat(e.fireAt).isEqualTo(t);
            }
            fired += due.size();
            due.clear();
        }
        assertThat(fired).isEqualTo(all.size());
        assertThat(wheel.size()).isZero();
    }

    @Test
    void aJumpFiresEverythingDueAndKeepsTheRest() {
        TimingWheel wheel = new TimingWheel(0);
        List<WheelEntry> due = new ArrayList<>();
        long[] times = {1, 63, 64, 65, 4_095, 4_096, 262_143, 262_144, 86_400_000L, 2L * 366 * 86_400_000L};
        for (long t : times) {
            wheel.add(entry(t), due);
        }
        wheel.advance(262_144, due);
        assertThat(due).extracting(e -> e.fireAt).containsExactlyInAnyOrder(1L, 63L, 64L, 65L, 4_095L, 4_096L,
                262_143L, 262_144L);
        due.clear();
        assertThat(wheel.nextDeadline()).isLessThanOrEqualTo(86_400_000L);
        wheel.advance(2L * 366 * 86_400_000L, due);
        assertThat(due).extracting(e -> e.fireAt).containsExactlyInAnyOrder(86_400_000L, 2L * 366 * 86_400_000L);
        assertThat(wheel.nextDeadline()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void nextDeadlineLeadsToEachEntryWithoutOvershooting() {
        TimingWheel wheel = new TimingWheel(5);
        Random random = new Random(11);
        List<WheelEntry> due = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            wheel.add(entry(6 + (long) (random.nextDouble() * 40_000_000L)), due);
        }
        int fired = 0;
        while (wheel.size() > 0) {
            long next = wheel.nextDeadline();
            assertThat(next).isGreaterThan(wheel.now());
            wheel.advance(next, due);
            for (WheelEntry e : due) {
                assertThat(e.fireAt).isEqualTo(next); // never late: the deadline is never past an entry
            }
            fired += due.size();
            due.clear();
        }
        assertThat(fired).isEqualTo(2_000);
    }

    @Test
    void anEntryAlreadyDueIsReturnedAtOnce() {
        TimingWheel wheel = new TimingWheel(1_000);
        List<WheelEntry> due = new ArrayList<>();
        wheel.add(entry(999), due);
        wheel.add(entry(1_000), due);
        wheel.add(entry(Long.MIN_VALUE + 1), due);
        assertThat(due).hasSize(3);
        assertThat(wheel.size()).isZero();
    }
}
