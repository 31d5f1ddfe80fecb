package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The lane's pacing on a clock the test moves: probes due, and the backlog given up past a second, counted. */
class ProbePacerTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final AtomicLong clock = new AtomicLong(1_000 * MS);
    private final AtomicLong dropped = new AtomicLong();

    @Test
    void aSenderThatKeepsUpDropsNothing() {
        ProbePacer pacer = new ProbePacer(clock.get());
        for (int ms = 0; ms <= 2_000; ms += 10) {
            clock.set(1_000 * MS + ms * MS);
            sendDue(pacer, 100);
        }
        assertThat(pacer.issuedCount()).as("100/s for 2 s, the first at once").isEqualTo(201);
        assertThat(dropped).hasValue(0);
    }

    @Test
    void aStallOverASecondDropsTheBacklogBeyondOneSecondAndCountsIt() {
        ProbePacer pacer = new ProbePacer(clock.get());
        sendDue(pacer, 100);
        clock.addAndGet(3_500 * MS); // the sender stalled 3.5 s: 350 probes due, 100 of them kept
        long due = pacer.dueCount(clock.get(), 100, dropped::addAndGet);

        assertThat(due).isEqualTo(351);
        assertThat(dropped).as("351 due, 1 sent, one second (100) kept").hasValue(250);
        assertThat(due - pacer.issuedCount()).isEqualTo(100);
    }

    @Test
    void aStallOfUnderASecondIsCaughtUpNotDropped() {
        ProbePacer pacer = new ProbePacer(clock.get());
        sendDue(pacer, 100);
        clock.addAndGet(900 * MS);
        sendDue(pacer, 100);
        assertThat(pacer.issuedCount()).isEqualTo(91);
        assertThat(dropped).hasValue(0);
    }

    @Test
    void aRestartCountsTheNewRateFromThenWithoutABurstOrADrop() {
        ProbePacer pacer = new ProbePacer(clock.get());
        clock.addAndGet(5_000 * MS);
        pacer.restart(clock.get());
        sendDue(pacer, 400);
        assertThat(pacer.issuedCount()).isEqualTo(1);
        assertThat(dropped).hasValue(0);
        assertThat(pacer.nextDueNanos(400)).isEqualTo(clock.get() + 2_500_000);
    }

    private void sendDue(ProbePacer pacer, double rate) {
        long due = pacer.dueCount(clock.get(), rate, dropped::addAndGet);
        while (pacer.issuedCount() < due) {
            pacer.issued();
        }
    }
}
