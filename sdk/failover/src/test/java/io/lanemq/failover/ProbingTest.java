package io.lanemq.failover;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.support.FakeClock;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ProbingTest {

    /** Records the prober's periodic task instead of running it, so the test drives each tick. */
    static final class ManualScheduler extends ScheduledThreadPoolExecutor {
        Runnable task;
        ScheduledFuture<?> future;
        int scheduled;

        ManualScheduler() {
            super(1);
        }

        @Override
        public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay,
                TimeUnit unit) {
            task = command;
            scheduled++;
            future = schedule(() -> { }, 1, TimeUnit.DAYS);
            return future;
        }
    }

    private final FakeClock ticker = new FakeClock();
    private final ManualScheduler scheduler = new ManualScheduler();
    private final AtomicBoolean healthy = new AtomicBoolean(false);
    private final AtomicInteger probes = new AtomicInteger();

    @AfterEach
    void shutDown() {
        scheduler.shutdownNow();
    }

    private WeightedFailover<String> failover(HealthChecker<String> checker) {
        return WeightedFailover.<String>builder()
                .ticker(ticker)
                .probeExecutor(scheduler)
                .probeInterval(Duration.ofSeconds(1))
                .healthChecker(checker)
                .callee("a", 100)
                .callee("b", 100)
                .build();
    }

    private WeightedFailover<String> failover() {
        return failover(callee -> {
            probes.incrementAndGet();
            return healthy.get();
        });
    }

    private static void failUntilDown(WeightedFailover<String> failover, String callee) {
        while (!failover.stats().stream().filter(s -> s.callee().equals(callee)).findFirst().orElseThrow().down()) {
            failover.pick(java.util.Set.of(other(callee))).orElseThrow().onFailure();
        }
    }

    private static String other(String callee) {
        return callee.equals("a") ? "b" : "a";
    }

    private static CalleeStats<String> stats(WeightedFailover<String> failover, String callee) {
        return failover.stats().stream().filter(s -> s.callee().equals(callee)).findFirst().orElseThrow();
    }

    @Test
    void downCalleeIsProbedAfterTheIntervalAndComesBackAtRecoveryWeight() {
        WeightedFailover<String> failover = failover();
        failUntilDown(failover, "a");

        assertThat(failover.checkNow()).as("interval not yet passed").isZero();
        assertThat(probes).hasValue(0);

        ticker.advance(Duration.ofSeconds(1));
        assertThat(failover.checkNow()).as("probe fails").isZero();
        assertThat(probes).hasValue(1);
        assertThat(failover.checkNow()).as("a failed probe restarts the wait").isZero();
        assertThat(probes).hasValue(1);

        healthy.set(true);
        ticker.advance(Duration.ofSeconds(1));
        assertThat(failover.checkNow()).isEqualTo(1);

        CalleeStats<String> a = stats(failover, "a");
        assertThat(a.down()).isFalse();
        assertThat(a.currentWeight()).isEqualTo(10);
        for (int i = 0; i < 10; i++) {
            failover.pick(java.util.Set.of("b")).orElseThrow().onSuccessNanos(1_000_000);
        }
        assertThat(stats(failover, "a").currentWeight()).isEqualTo(20, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void probingRunsOnlyWhileSomethingIsDown() {
        WeightedFailover<String> failover = failover();
        assertThat(scheduler.task).as("idle failover schedules nothing").isNull();

        failUntilDown(failover, "a");
        assertThat(scheduler.scheduled).isEqualTo(1);
        failover.markDown("b");
        assertThat(scheduler.scheduled).as("one task serves every down callee").isEqualTo(1);

        healthy.set(true);
        ticker.advance(Duration.ofSeconds(1));
        scheduler.task.run();

        assertThat(failover.stats()).noneMatch(CalleeStats::down);
        assertThat(scheduler.future.isCancelled()).as("task stops once nothing is down").isTrue();

        failover.markDown("a");
        assertThat(scheduler.scheduled).as("restarted by the next down callee").isEqualTo(2);
    }

    @Test
    void aThrowingCheckerCountsAsUnhealthy() {
        WeightedFailover<String> failover = failover(callee -> {
            throw new java.io.IOException("connection refused");
        });
        failover.markDown("a");

        ticker.advance(Duration.ofSeconds(1));
        scheduler.task.run();

        assertThat(stats(failover, "a").down()).isTrue();
        assertThat(scheduler.future.isCancelled()).isFalse();
    }

    @Test
    void defaultCheckerGivesADownCalleeATrialAfterTheInterval() {
        WeightedFailover<String> failover = WeightedFailover.<String>builder()
                .ticker(ticker).probeExecutor(scheduler).callee("a", 100).build();
        failover.markDown("a");

        ticker.advance(Duration.ofSeconds(1));

        assertThat(failover.checkNow()).isEqualTo(1);
        assertThat(failover.pick()).isPresent();
    }

    @Test
    void ownedProbeThreadIsANamedDaemonAndStopsOnClose() throws InterruptedException {
        WeightedFailover<String> failover = WeightedFailover.<String>builder()
                .name("order-paid").callee("a", 100).build();
        failover.markDown("a");

        Thread probeThread = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("lanemq-failover-probe-order-paid"))
                .findFirst().orElseThrow();
        assertThat(probeThread.isDaemon()).isTrue();

        failover.close();
        probeThread.join(5_000);
        assertThat(probeThread.isAlive()).isFalse();
    }
}
