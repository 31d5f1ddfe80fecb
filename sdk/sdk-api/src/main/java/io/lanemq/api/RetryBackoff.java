package io.lanemq.api;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a message a listener did not process ({@link ConsumeResult#RETRY_LATER}, or an exception) waits before its
 * next delivery: the same delay every time, or a delay growing by a factor per failed attempt up to a cap. Immutable
 * and thread-safe.
 *
 * <pre>{@code
 * Subscription.builder("order-paid", "billing")
 *     .retryBackoff(RetryBackoff.exponential(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5)))
 *     .build();
 * }</pre>
 *
 * <p>How exactly the delay is kept depends on where the group consumes: an ordered subscription pauses the message's
 * queue for the delay; an unordered DIRECT one is redelivered after the nearest of RocketMQ's delay levels (1 s, 5 s,
 * 10 s, 30 s, 1 min ... 2 h); a PROXY one after the delay, as the consumer proxy keeps it.
 */
public final class RetryBackoff {
    private final Duration initial;
    private final double multiplier;
    private final Duration max;

    private RetryBackoff(Duration initial, double multiplier, Duration max) {
        this.initial = initial;
        this.multiplier = multiplier;
        this.max = max;
    }

    /** The same {@code delay} before every redelivery. */
    public static RetryBackoff fixed(Duration delay) {
        requirePositive("delay", delay);
        return new RetryBackoff(delay, 1.0, delay);
    }

    /**
     * {@code initial} before the second delivery, then {@code multiplier} times the previous delay, never more than
     * {@code max}.
     */
    public static RetryBackoff exponential(Duration initial, double multiplier, Duration max) {
        requirePositive("initial", initial);
        requirePositive("max", max);
        if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
            throw new IllegalArgumentException("multiplier must be a finite number >= 1, was " + multiplier);
        }
        if (max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("max (" + max + ") must not be below initial (" + initial + ")");
        }
        return new RetryBackoff(initial, multiplier, max);
    }

    /** The delay before the delivery that follows failed attempt {@code failedAttempt} (1 for the first delivery). */
    public Duration delayAfter(int failedAttempt) {
        if (failedAttempt < 1) {
            throw new IllegalArgumentException("failedAttempt must be >= 1, was " + failedAttempt);
        }
        double millis = initial.toMillis() * Math.pow(multiplier, failedAttempt - 1);
        return millis >= max.toMillis() ? max : Duration.ofMillis((long) millis);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RetryBackoff b && b.initial.equals(initial) && b.multiplier == multiplier && b.max.equals(max);
    }

    @Override
    public int hashCode() {
        return Objects.hash(initial, multiplier, max);
    }

    @Override
    public String toString() {
        return multiplier == 1.0 && initial.equals(max) ? "RetryBackoff[fixed " + initial + "]"
                : "RetryBackoff[" + initial + " x" + multiplier + " up to " + max + "]";
    }

    private static void requirePositive(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }
}
