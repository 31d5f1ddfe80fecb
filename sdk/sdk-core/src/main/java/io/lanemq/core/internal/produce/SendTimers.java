package io.lanemq.core.internal.produce;

import io.lanemq.support.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The failover and deadline timers of a producer's sends, gathered into ticks: every timer due within one tick
 * runs when that tick does, at most one tick late, and a tick is one task of the executor however many timers
 * it holds. A cancelled timer is dropped from its tick when the tick runs, and lets go of its task at once.
 *
 * <p>Why not one executor task per timer: every send sets one and nearly every send cancels it, and in the
 * asynchronous send profile (1,024 sends in flight, 150,000 a second) the executor's queue, a heap behind one lock
 * taken by every sender and every answer, was the SDK's largest cost of its own: 9% of all CPU samples in the
 * cancel alone. The failover's bounds are a quarter of a second and more, so a tick of a few milliseconds changes
 * no decision.
 */
final class SendTimers {
    private final ScheduledExecutorService executor;
    private final Ticker ticker;
    private final long tickNanos;
    private final Map<Long, Tick> ticks = new ConcurrentHashMap<>();

    SendTimers(ScheduledExecutorService executor, Ticker ticker, long tickNanos) {
        this.executor = executor;
        this.ticker = ticker;
        this.tickNanos = tickNanos;
    }

    /**
     * Runs {@code task} once {@code delayNanos} have passed, rounded up to the next tick.
     *
     * @throws RejectedExecutionException the executor was shut down and no tick is due then
     */
    Timer schedule(Runnable task, long delayNanos) {
        long now = ticker.read();
        long index = Math.floorDiv(now + Math.max(0, delayNanos), tickNanos) + 1;
        Timer timer = new Timer(task);
        while (true) {
            Tick tick = ticks.computeIfAbsent(index, i -> new Tick());
            synchronized (tick) {
                if (!tick.fired) {
                    if (tick.timers.isEmpty() && !tick.scheduled) {
                        executor.schedule(() -> fire(index, tick), index * tickNanos - now, TimeUnit.NANOSECONDS);
                        tick.scheduled = true;
                    }
                    tick.timers.add(timer);
                    return timer;
                }
            }
            // That tick just ran: the timer is due now, and a fresh tick of the same index runs it.
            ticks.remove(index, tick);
        }
    }

    private void fire(long index, Tick tick) {
        List<Timer> due;
        synchronized (tick) {
            tick.fired = true;
            due = tick.timers;
            tick.timers = List.of();
        }
        ticks.remove(index, tick);
        for (Timer timer : due) {
            Runnable task = timer.task;
            if (task != null) {
                task.run();
            }
        }
    }

    /** A timer; {@link #cancel()} keeps its task from running if it has not started yet. */
    static final class Timer {
        private volatile Runnable task;

        private Timer(Runnable task) {
            this.task = task;
        }

        void cancel() {
            task = null;
        }
    }

    /** The timers of one tick. Guarded by itself. */
    private static final class Tick {
        List<Timer> timers = new ArrayList<>();
        boolean scheduled;
        boolean fired;
    }
}
