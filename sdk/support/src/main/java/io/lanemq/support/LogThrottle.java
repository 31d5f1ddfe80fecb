package io.lanemq.support;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * At most one log line per interval (per key, when keyed) for an event anyone on the network can cause (a
 * refused connection, a wrong token, garbage on a port), so a flood cannot fill the disk while each kind stays
 * visible; the line carries how many happened since the last one, and the event's metric counts each.
 * Thread-safe.
 *
 * <pre>{@code
 * LogThrottle refusals = LogThrottle.every(Duration.ofMinutes(1), ticker);
 * long count = refusals.event();
 * if (count > 0) {
 *     log.warn("refused {} call(s) with a wrong token since the last such line", count);
 * }
 * }</pre>
 */
public final class LogThrottle {
    private static final long NEVER = Long.MIN_VALUE;
    private static final String UNKEYED = "";

    private final long intervalNanos;
    private final Ticker ticker;
    private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();

    private LogThrottle(Duration interval, Ticker ticker) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("log throttle interval must be positive, was " + interval);
        }
        this.intervalNanos = interval.toNanos();
        this.ticker = Objects.requireNonNull(ticker, "ticker");
    }

    /** A throttle letting one line per {@code interval} through, per key. */
    public static LogThrottle every(Duration interval, Ticker ticker) {
        return new LogThrottle(interval, ticker);
    }

    /** One line a minute on the system ticker. */
    public static LogThrottle perMinute() {
        return every(Duration.ofMinutes(1), Ticker.system());
    }

    /** Records one event; returns how many to report now (this one included), or 0 when the line is skipped. */
    public long event() {
        return event(UNKEYED);
    }

    /** {@link #event()} for the events of one {@code key}, throttled apart from the other keys. */
    public long event(String key) {
        Window window = windows.computeIfAbsent(key, k -> new Window());
        long count = window.unlogged.incrementAndGet();
        long last = window.lastLogged.get();
        long now = ticker.read();
        if ((last == NEVER || now - last >= intervalNanos) && window.lastLogged.compareAndSet(last, now)) {
            window.unlogged.addAndGet(-count);
            return count;
        }
        return 0;
    }

    /**
     * Logs {@code message} (an slf4j pattern) at WARN under {@code key} unless that key logged within the interval,
     * adding how many were suppressed since.
     */
    public void warn(Logger log, String key, String message, Object... args) {
        long count = event(key);
        if (count > 0 && log.isWarnEnabled()) {
            log.warn(count > 1 ? message + " (" + (count - 1) + " similar suppressed)" : message, args);
        }
    }

    private static final class Window {
        final AtomicLong lastLogged = new AtomicLong(NEVER);
        final AtomicLong unlogged = new AtomicLong();
    }
}
