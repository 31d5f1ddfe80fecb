package io.lanemq.core.internal.produce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.support.Ticker;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The sends' timers: due ones run at most a tick late, cancelled ones never, and a tick is one executor task. */
class SendTimersTest {
    private static final long TICK = TimeUnit.MILLISECONDS.toNanos(20);

    private final AtomicInteger executorTasks = new AtomicInteger();
    private final ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1) {
        @Override
        public java.util.concurrent.ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
            executorTasks.incrementAndGet();
            return super.schedule(command, delay, unit);
        }
    };
    private final SendTimers timers = new SendTimers(executor, Ticker.system(), TICK);

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    @Test
    void timersDueInOneTickRunTogetherFromOneExecutorTaskAndNotBeforeTheirTime() {
        List<Long> lateness = new CopyOnWriteArrayList<>();
        long delay = TimeUnit.MILLISECONDS.toNanos(100);
        long start = System.nanoTime();
        for (int i = 0; i < 1_000; i++) {
            long due = start + delay;
            timers.schedule(() -> lateness.add(System.nanoTime() - due), delay);
        }

        await().atMost(Duration.ofSeconds(5)).until(() -> lateness.size() == 1_000);
        assertThat(lateness).as("none ran before its time").allMatch(late -> late >= -TimeUnit.MILLISECONDS.toNanos(1));
        assertThat(executorTasks.get()).as("executor tasks for 1,000 timers set within a tick or two").isLessThanOrEqualTo(3);
    }

    @Test
    void aCancelledTimerNeverRunsAndTheOthersOfItsTickDo() {
        AtomicInteger ran = new AtomicInteger();
        SendTimers.Timer cancelled = timers.schedule(() -> ran.addAndGet(1_000), TICK);
        timers.schedule(ran::incrementAndGet, TICK);
        cancelled.cancel();

        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> ran.get() == 1);
    }

    @Test
    void aTimerSetWhileItsTickIsFiringStillRuns() {
        AtomicInteger ran = new AtomicInteger();
        // Timers due now, set from the timers themselves and from this thread, race each tick's firing.
        for (int i = 0; i < 200; i++) {
            timers.schedule(() -> timers.schedule(ran::incrementAndGet, 0), 0);
            timers.schedule(ran::incrementAndGet, 0);
        }

        await().atMost(Duration.ofSeconds(5)).until(() -> ran.get() == 400);
    }
}
