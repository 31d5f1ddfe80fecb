package io.lanemq.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SendLogTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final AtomicLong clock = new AtomicLong(1_000 * SECOND);
    private final SendLog log = new SendLog(clock::get);

    @Test
    void aSecondCountsTheSendsAcknowledgedInItNotTheOnesStartedOrFailedInIt() {
        SendLog.Send slow = log.started();
        SendLog.Send failing = log.started();
        SendLog.Send stuck = log.started();
        clock.addAndGet(SECOND / 2);
        failing.failed();
        log.started().acknowledged("a", "fast");
        clock.addAndGet(SECOND);
        slow.acknowledged("b", "slow");
        clock.addAndGet(SECOND);

        assertThat(log.acknowledgedPerSecond(0, log.nowNanos()))
                .as("second 0: one acknowledged, one failed, three started; second 1: the slow one acknowledged")
                .containsExactly(1, 1);
        assertThat(stuck.outcome().inFlight()).as("a send never answered counts in no second").isTrue();
    }

    @Test
    void onlyWholeSecondsOfTheWindowAreCounted() {
        clock.addAndGet(SECOND / 2);
        log.started().acknowledged("a", "before");
        clock.addAndGet(SECOND);
        log.started().acknowledged("a", "inside");
        clock.addAndGet(SECOND);
        log.started().acknowledged("a", "after the last whole second");

        assertThat(log.acknowledgedPerSecond(SECOND, 2 * SECOND + SECOND * 7 / 10)).containsExactly(1);
    }
}
