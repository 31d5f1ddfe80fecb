package io.lanemq.api;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Opt-in consumer-side deduplication for a {@link Subscription}: a message whose identity was processed
 * successfully within the window is acknowledged without calling the listener again. Immutable.
 *
 * <p>Delivery is at least once. Copies come from the SDK itself (a send given up on after a timeout and
 * acknowledged by the other cluster: both copies carry one message id), from a broker redelivering after a
 * rebalance or a consumer restart, and from producers that send one business event twice (same business key).
 * Deduplication removes the copies that arrive at one consumer instance within the window; it is held in memory,
 * per subscription, so copies consumed by two different instances of the group, or after a restart, still reach
 * the listener, unless a shared {@link DeduplicationStore} is set ({@link #withStore}): then those are recognised
 * too, as long as the store answers (when it does not, messages are processed, never lost). A listener must
 * therefore stay idempotent where a duplicate does harm.
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
    /**
     * The message property a re-sent copy of a message carries its original message id in: a dead letter replayed
     * ({@code lanemq-config dlq replay}) is a new message on the brokers, and {@link Identity#MESSAGE_ID} takes this
     * property, when present, as its identity, so a message replayed twice, or replayed after it was processed, is
     * recognised as the same message.
     */
    public static final String ORIGINAL_MESSAGE_ID_PROPERTY = "LANEMQ_ORIGINAL_MESSAGE_ID";

    /** What makes two deliveries the same message. */
    public enum Identity {
        /**
         * The message id (the {@link #ORIGINAL_MESSAGE_ID_PROPERTY} of a replayed copy): the SDK's own retries, broker
         * redeliveries and replays.
         */
        MESSAGE_ID,
        /**
         * The message's first key ({@link Message.Builder#keys}): a business event sent twice by its producer too.
         * Messages without a key are not deduplicated.
         */
        FIRST_KEY
    }

    /** Entries held at most, unless set: at ~100 bytes an entry, about 10 MiB of heap. */
    public static final long DEFAULT_MAX_ENTRIES = 100_000;
    /**
     * How long a claim in the shared store lives, unless set: longer than the listener normally takes, short enough
     * that a message whose consumer died mid-processing is taken up again soon.
     */
    public static final Duration DEFAULT_CLAIM_TTL = Duration.ofMinutes(2);

    private final Identity identity;
    private final Duration window;
    private final long maxEntries;
    private final DeduplicationStore store;
    private final Duration claimTtl;

    private Deduplication(Identity identity, Duration window, long maxEntries, DeduplicationStore store, Duration claimTtl) {
        this.identity = Objects.requireNonNull(identity, "identity");
        this.window = positive(window, "window");
        if (maxEntries < 1) {
            throw new IllegalArgumentException("deduplication maxEntries must be at least 1, was " + maxEntries);
        }
        this.maxEntries = maxEntries;
        this.store = store;
        this.claimTtl = positive(claimTtl, "claimTtl");
    }

    private static Duration positive(Duration value, String name) {
        Objects.requireNonNull(value, "deduplication " + name);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException("deduplication " + name + " must be positive, was " + value);
        }
        return value;
    }

    /** Copies with the same message id within {@code window}, at most {@link #DEFAULT_MAX_ENTRIES} remembered. */
    public static Deduplication byMessageId(Duration window) {
        return new Deduplication(Identity.MESSAGE_ID, window, DEFAULT_MAX_ENTRIES, null, DEFAULT_CLAIM_TTL);
    }

    /** Copies with the same first key within {@code window}, at most {@link #DEFAULT_MAX_ENTRIES} remembered. */
    public static Deduplication byFirstKey(Duration window) {
        return new Deduplication(Identity.FIRST_KEY, window, DEFAULT_MAX_ENTRIES, null, DEFAULT_CLAIM_TTL);
    }

    /**
     * The same, remembering at most {@code maxEntries} identities (the least recently used go first when full: a
     * copy of one of those is then processed again).
     */
    public Deduplication withMaxEntries(long maxEntries) {
        return new Deduplication(identity, window, maxEntries, store, claimTtl);
    }

    /**
     * The same, backed by {@code store}, shared by the group's instances (see {@link DeduplicationStore}). The
     * in-memory window stays in front of it; the caller owns the store and closes it after the client.
     */
    public Deduplication withStore(DeduplicationStore store) {
        return new Deduplication(identity, window, maxEntries, Objects.requireNonNull(store, "deduplication store"), claimTtl);
    }

    /**
     * The same, with claims in the shared store living {@code claimTtl} (default {@link #DEFAULT_CLAIM_TTL}): set it
     * above the listener's longest processing time, or a slow attempt's copy runs beside it.
     */
    public Deduplication withClaimTtl(Duration claimTtl) {
        return new Deduplication(identity, window, maxEntries, store, claimTtl);
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

    /** The shared store, if one is set. */
    public Optional<DeduplicationStore> store() {
        return Optional.ofNullable(store);
    }

    /** How long a claim in the shared store lives. */
    public Duration claimTtl() {
        return claimTtl;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Deduplication other && identity == other.identity && window.equals(other.window)
                && maxEntries == other.maxEntries && store == other.store && claimTtl.equals(other.claimTtl);
    }

    @Override
    public int hashCode() {
        return Objects.hash(identity, window, maxEntries, System.identityHashCode(store), claimTtl);
    }

    @Override
    public String toString() {
        return "Deduplication[by=" + identity + ", window=" + window + ", maxEntries=" + maxEntries
                + (store == null ? "" : ", store=" + store + ", claimTtl=" + claimTtl) + "]";
    }
}
