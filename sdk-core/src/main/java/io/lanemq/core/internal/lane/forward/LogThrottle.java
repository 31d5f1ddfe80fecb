package io.lanemq.core.internal.lane.forward;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * At most one log line per interval for an event anyone on the network can cause (a refused connection,
 * a wrong token), so a flood cannot fill the disk; the line carries how many happened since the last
 * one, and the event's metric counts each.
 */
final class LogThrottle {
    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private final AtomicLong unlogged = new AtomicLong();
    private final AtomicLong lastLogNanos;

    LogThrottle(long interval, TimeUnit unit, LongSupplier nanoClock) {
        this.intervalNanos = unit.toNanos(interval);
        this.nanoClock = nanoClock;
        this.lastLogNanos = new AtomicLong(nanoClock.getAsLong() - intervalNanos);
    }

    static LogThrottle perMinute() {
        return new LogThrottle(1, TimeUnit.MINUTES, System::nanoTime);
    }

    /** Records one event; returns how many to report now (this one included), or 0 when the line is skipped. */
    long event() {
        long count = unlogged.incrementAndGet();
        long last = lastLogNanos.get();
        long now = nanoClock.getAsLong();
        if (now - last >= intervalNanos && lastLogNanos.compareAndSet(last, now)) {
            unlogged.addAndGet(-count);
            return count;
        }
        return 0;
    }
}
