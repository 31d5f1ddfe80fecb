package io.lanemq.proxy;

import java.time.Duration;
import java.util.Objects;

/**
 * How one group's messages are dispatched: the ack timeout, the attempts before the dead-letter
 * topic, the exponential backoff of a nack that names no delay, and the run: how many deliveries in a
 * row one consumer may take in its round-robin turn, within one decision, so that they can share a
 * frame. The same run for every consumer keeps the shares even between consumers that accept
 * batched frames and those that do not.
 */
record DispatchPolicy(Duration ackTimeout, int maxDeliveryAttempts, Duration initialBackoff, Duration maxBackoff, int run) {
    /** What the SDK acks in one batch with its default 4 listener threads. */
    static final int DEFAULT_RUN = 8;

    /** Strict round-robin, one delivery per turn. */
    DispatchPolicy(Duration ackTimeout, int maxDeliveryAttempts, Duration initialBackoff, Duration maxBackoff) {
        this(ackTimeout, maxDeliveryAttempts, initialBackoff, maxBackoff, 1);
    }

    DispatchPolicy {
        if (run < 1) {
            throw new IllegalArgumentException("run must be at least 1, was " + run);
        }
        Objects.requireNonNull(ackTimeout, "ackTimeout");
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        if (ackTimeout.toMillis() < 1 || ackTimeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("ackTimeout must be 1 ms to 24 days, was " + ackTimeout);
        }
        if (maxDeliveryAttempts < 1) {
            throw new IllegalArgumentException("maxDeliveryAttempts must be at least 1, was " + maxDeliveryAttempts);
        }
        if (initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("backoff must satisfy 0 <= initialBackoff <= maxBackoff, was "
                    + initialBackoff + " and " + maxBackoff);
        }
    }

    /** The delay before redelivering a message whose {@code attempt}-th delivery was nacked without a delay. */
    long backoffNanos(int attempt) {
        long initial = initialBackoff.toNanos();
        int doublings = Math.min(Math.max(attempt - 1, 0), 30);
        long delay = initial << doublings;
        return delay < 0 || delay > maxBackoff.toNanos() ? maxBackoff.toNanos() : delay;
    }
}
