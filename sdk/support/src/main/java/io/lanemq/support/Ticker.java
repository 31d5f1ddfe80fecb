package io.lanemq.support;

/**
 * A source of monotonic nanosecond time, injected so that tests advance time instead of sleeping.
 * Wall time (due times, timestamps in messages) is the JDK's {@link java.time.InstantSource}; this is
 * for durations, deadlines and latency only.
 *
 * <p>Only differences between two readings are meaningful, as with {@link System#nanoTime()}.
 * Implementations must be thread-safe.
 *
 * <pre>{@code
 * AtomicLong now = new AtomicLong();
 * WeightedFailover<String> failover = WeightedFailover.<String>builder()
 *         .ticker(now::get)
 *         .build();
 * }</pre>
 */
@FunctionalInterface
public interface Ticker {

    /** Returns the current time in nanoseconds, from an arbitrary origin. */
    long read();

    /** Returns the ticker backed by {@link System#nanoTime()}. */
    static Ticker system() {
        return SystemTicker.INSTANCE;
    }
}

enum SystemTicker implements Ticker {
    INSTANCE;

    @Override
    public long read() {
        return System.nanoTime();
    }
}
