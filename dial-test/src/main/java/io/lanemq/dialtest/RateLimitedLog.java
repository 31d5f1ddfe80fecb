package io.lanemq.dialtest;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * Logs a warning at most once per interval and key, adding how many were suppressed since: garbage on a port
 * must be visible in the log without letting whoever sends it fill the disk.
 */
final class RateLimitedLog {

    private static final long NEVER = Long.MIN_VALUE;

    private final Logger log;
    private final DialClock clock;
    private final long intervalNanos;
    private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();

    RateLimitedLog(Logger log, DialClock clock, long interval, TimeUnit unit) {
        this.log = log;
        this.clock = clock;
        this.intervalNanos = unit.toNanos(interval);
    }

    /** Logs {@code message} (an slf4j pattern) under {@code key} unless that key logged within the interval. */
    void warn(String key, String message, Object... args) {
        Window window = windows.computeIfAbsent(key, k -> new Window());
        long now = clock.nanos();
        long last = window.lastLogged.get();
        if (last != NEVER && now - last < intervalNanos) {
            window.suppressed.incrementAndGet();
            return;
        }
        if (!window.lastLogged.compareAndSet(last, now)) {
            window.suppressed.incrementAndGet();
            return;
        }
        long suppressed = window.suppressed.getAndSet(0);
        if (log.isWarnEnabled()) {
            String suffix = suppressed > 0 ? " (" + suppressed + " similar suppressed)" : "";
            log.warn(message + suffix, args);
        }
    }

    private static final class Window {
        final AtomicLong lastLogged = new AtomicLong(NEVER);
        final AtomicLong suppressed = new AtomicLong();
    }
}
