package io.lanemq.support;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Delays between attempts: doubling from {@code initial} up to {@code max}. With a random source each delay is drawn
 * from the upper half of its step, so that many clients that lost the same server (etcd, the consumer proxy) do not
 * come back in lockstep; {@link #exact} gives the steps themselves (the delay server's redelivery, where one server
 * paces its own retries and a predictable schedule is what its operators read).
 */
public final class Backoff {
    private final long initialNanos;
    private final long maxNanos;
    private final DoubleSupplier random;

    public Backoff(Duration initial, Duration max, DoubleSupplier random) {
        if (initial.isNegative() || initial.isZero()) {
            throw new IllegalArgumentException("reconnect backoff initial delay must be positive, was " + initial);
        }
        if (max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("reconnect backoff max (" + max + ") must be at least the initial delay (" + initial + ")");
        }
        this.initialNanos = initial.toNanos();
        this.maxNanos = max.toNanos();
        this.random = random;
    }

    /** Doubling from {@code initial} up to {@code max}, without jitter. */
    public static Backoff exact(Duration initial, Duration max) {
        return new Backoff(initial, max, () -> 1.0);
    }

    /** The delay before attempt {@code failures + 1}, after {@code failures} consecutive failures (at least 1). */
    public Duration delay(int failures) {
        long step = initialNanos;
        for (int i = 1; i < failures && step < maxNanos; i++) {
            step = step > maxNanos / 2 ? maxNanos : step * 2;
        }
        return Duration.ofNanos((long) (step * (0.5 + 0.5 * random.getAsDouble())));
    }
}
