package io.lanemq.api;

import java.time.Duration;
import java.util.Objects;

/**
 * Opt-in consumer-side deduplication for a {@link Subscription}: a message whose identity was processed
 * successfully within the window is acknowledged without calling the listener again. Immutable.
 *
 * <p>Delivery is at least once. Copies come from the SDK itself (a send given up on after a timeout and
 * acknowledged by the other cluster: both copies carry one message id), from a broker redelivering after a
 * rebalance or a consumer restart, and from producers that send one business event twice (same business key).
 * Deduplication removes the copies that arrive at one consumer instance within the window; it is held in memory,
 * per subscription, so copies consumed by two different instances of the group, or after a restart, still reach
 * the listener. A listener must therefore stay idempotent where a duplicate does harm.
 *
 * <p>Only a success is remembered: a copy of a message whose earlier delivery failed (exception or
 * {@link ConsumeResult#RETRY_LATER}) is processed again. A copy that arrives while the first is still being
 * processed is answered {@link ConsumeResult#RETRY_LATER}, and is then dropped or processed depending on how
 * the first one ended.
 *
 * <pre>{@code
 * Subscription subscription = Subscription.builder("order-paid", "billing")
 *         .deduplicate(Deduplication.byMessageId(Duration.ofMinutes(10)))
 *         .build();
 * }</pre>
 */
public final class Deduplication {
    /** What makes two deliveries the same message. */
    public enum Identity {
        /** The message id: the SDK's own retries and broker redeliveries. */
        MESSAGE_ID,
        /**
         * The message's first key ({@link Message.Builder#keys}): a business event sent twice by its producer too.
         * Messages without a key are not deduplicated.
         */
        FIRST_KEY
    }

    /** Entries held at most, unless set: at ~100 bytes an entry, about 10 MiB of heap. */
    public static final long DEFAULT_MAX_ENTRIES = 100_000;

    private final Identity identity;
    private final Duration window;
    private final long maxEntries;

    private Deduplication(Identity identity, Duration window, long maxEntries) {
        this.identity = Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(window, "window");
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("deduplication window must be positive, was " + window);
        }
        if (maxEntries < 1) {
            throw new IllegalArgumentException("deduplication maxEntries must be at least 1, was " + maxEntries);
        }
        this.window = window;
        this.maxEntries = maxEntries;
    }

    /** Copies with the same message id within {@code window}, at most {@link #DEFAULT_MAX_ENTRIES} remembered. */
    public static Deduplication byMessageId(Duration window) {
        return new Deduplication(Identity.MESSAGE_ID, window, DEFAULT_MAX_ENTRIES);
    }

    /** Copies with the same first key within {@code window}, at most {@link #DEFAULT_MAX_ENTRIES} remembered. */
    public static Deduplication byFirstKey(Duration window) {
        return new Deduplication(Identity.FIRST_KEY, window, DEFAULT_MAX_ENTRIES);
    }

    /**
     * The same, remembering at most {@code maxEntries} identities (the least recently used go first when full: a
     * copy of one of those is then processed again).
     */
    public Deduplication withMaxEntries(long maxEntries) {
        return new Deduplication(identity, window, maxEntries);
    }

    public Identity identity() {
        return identity;
    }

    /** How long after its successful processing a message's identity is remembered. */
    public Duration window() {
        return window;
    }

    public long maxEntries() {
        return maxEntries;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Deduplication other && identity == other.identity && window.equals(other.window)
                && maxEntries == other.maxEntries;
    }

    @Override
    public int hashCode() {
        return Objects.hash(identity, window, maxEntries);
    }

    @Override
    public String toString() {
        return "Deduplication[by=" + identity + ", window=" + window + ", maxEntries=" + maxEntries + "]";
    }
}
