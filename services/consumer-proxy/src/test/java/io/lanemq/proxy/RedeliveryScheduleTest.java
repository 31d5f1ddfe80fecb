package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.proxy.protocol.Delivery;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Retry timing alone, on a fake clock: no consumers, no deliveries. */
class RedeliveryScheduleTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final AtomicLong clock = new AtomicLong(5_000_000_000L);
    private final QueueOffsetTracker tracker = new QueueOffsetTracker();
    private final List<HeldMessage> parked = new ArrayList<>();
    /** Delays from this long are parked, as GroupRuntime does with its broker-retry-from. */
    private long parksFromNanos = Long.MAX_VALUE;
    private final RedeliverySchedule schedule = new RedeliverySchedule(
            new DispatchPolicy(Duration.ofSeconds(10), 3, Duration.ofMillis(100), Duration.ofMillis(300)),
            clock::get, (message, delayNanos) -> delayNanos >= parksFromNanos && parked.add(message));

    @Test
    void theLastAllowedAttemptIsTheLast() {
        assertThat(schedule.lastAttempt(message(0, 2))).isFalse();
        assertThat(schedule.lastAttempt(message(1, 3))).as("3 of 3 attempts used").isTrue();
    }

    @Test
    void aNackWithoutADelayWaitsTheBackoffOfItsAttemptUpToTheMaximum() {
        assertThat(schedule.nackDelayNanos(message(0, 1), OptionalLong.of(2_500))).as("the nack's own delay")
                .isEqualTo(2_500 * MS);
        assertThat(schedule.nackDelayNanos(message(1, 1), OptionalLong.empty())).isEqualTo(100 * MS);
        assertThat(schedule.nackDelayNanos(message(2, 2), OptionalLong.empty())).isEqualTo(200 * MS);
        assertThat(schedule.nackDelayNanos(message(3, 3), OptionalLong.empty())).as("capped").isEqualTo(300 * MS);
    }

    @Test
    void noDelayMeansNowWithoutAskingParking() {
        parksFromNanos = 0;
        assertThat(schedule.schedule(message(0, 1), 0)).isEqualTo(RedeliverySchedule.Plan.NOW);
        assertThat(parked).isEmpty();
        assertThat(schedule.size()).isZero();
    }

    @Test
    void aDelayParkingTakesOverIsNotHeldHere() {
        parksFromNanos = 1_000 * MS;
        HeldMessage message = message(0, 1);
        assertThat(schedule.schedule(message, 60_000 * MS)).isEqualTo(RedeliverySchedule.Plan.PARKED);
        assertThat(parked).containsExactly(message);
        assertThat(schedule.size()).isZero();
    }

    @Test
    void aHeldRetryBecomesDueAfterItsDelayAndTiesLeaveInScheduleOrder() {
        HeldMessage late = message(0, 1);
        HeldMessage first = message(1, 1);
        HeldMessage second = message(2, 1);
        assertThat(schedule.schedule(late, 200 * MS)).isEqualTo(RedeliverySchedule.Plan.LATER);
        schedule.schedule(first, 100 * MS);
        schedule.schedule(second, 100 * MS);

        assertThat(schedule.pollDue(clock.get() + 99 * MS)).as("1 ms early").isNull();
        assertThat(drainDue(clock.get() + 100 * MS)).containsExactly(first, second);
        assertThat(drainDue(clock.get() + 200 * MS)).containsExactly(late);
        assertThat(schedule.size()).isZero();
    }

    @Test
    void droppingRemovesOnlyTheSelectedRetries() {
        HeldMessage kept = message(0, 1);
        HeldMessage dropped = message(1, 1);
        schedule.schedule(kept, 100 * MS);
        schedule.schedule(dropped, 100 * MS);

        assertThat(schedule.drop(message -> message == dropped)).containsExactly(dropped);
        assertThat(drainDue(clock.get() + 100 * MS)).containsExactly(kept);
    }

    private List<HeldMessage> drainDue(long now) {
        List<HeldMessage> due = new ArrayList<>();
        for (HeldMessage message = schedule.pollDue(now); message != null; message = schedule.pollDue(now)) {
            due.add(message);
        }
        return due;
    }

    private HeldMessage message(int offset, int attempts) {
        tracker.fetched(offset);
        return new HeldMessage(Delivery.newBuilder().setMessageId("m" + offset).build(), tracker, offset, null, null,
                attempts);
    }
}
