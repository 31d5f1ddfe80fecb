package io.lanemq.api;

import java.time.Duration;

/**
 * A store of message identities shared by every instance of a consumer group, behind {@link Deduplication}: with
 * one set ({@link Deduplication#withStore}), a copy consumed by another instance of the group, or after a restart,
 * is recognised too. Each instance keeps its in-memory window in front; the store is asked only about identities
 * that window does not know.
 *
 * <p>An identity is claimed before the listener runs ({@link #claim}), recorded {@code DONE} once it succeeded
 * ({@link #done}), and released when it failed ({@link #release}), so a failed attempt is never taken for a
 * processed one. A claim lives {@code ttl} at most: an instance that dies mid-processing blocks the message only
 * until then.
 *
 * <p>The keys the SDK passes are {@code <consumer group>:<logic topic>:<identity>} (the message id or its first
 * key); an implementation may prefix them with a namespace of its own.
 *
 * <p>Thread-safety and failures: implementations are called concurrently from the consuming threads and must be
 * thread-safe. Each call must return or throw within a bounded time (its own timeout), since the message waits on
 * it. A call that throws is taken as "the store is unreachable": the SDK then processes the message (a possible
 * duplicate, never a loss), counts it ({@code lanemq.consumer.dedup.store.failures}) and logs it at most once a
 * minute; a lost {@link #release} leaves the claim to expire by its ttl.
 *
 * <pre>{@code
 * DeduplicationStore store = RedisDeduplicationStore.builder("redis.internal", 6379).build();
 * Subscription subscription = Subscription.builder("order-paid", "billing")
 *         .deduplicate(Deduplication.byMessageId(Duration.ofMinutes(10)).withStore(store))
 *         .build();
 * }</pre>
 */
public interface DeduplicationStore {
    /** What a {@link #claim} found. */
    enum Claim {
        /** The identity was unknown: it is now claimed by the caller, who runs the listener. */
        CLAIMED,
        /** Another attempt holds an unexpired claim: the caller answers {@link ConsumeResult#RETRY_LATER}. */
        RUNNING,
        /** Processed successfully within the window: the caller drops the copy. */
        DONE
    }

    /**
     * Claims {@code key} for {@code owner} (unique per attempt) for {@code ttl}, atomically: of two concurrent
     * claims of an unknown key exactly one is {@link Claim#CLAIMED}.
     */
    Claim claim(String key, String owner, Duration ttl);

    /** Records {@code key} as processed for {@code window}, whoever holds its claim now (the success is the truth). */
    void done(String key, Duration window);

    /**
     * Forgets {@code owner}'s claim of {@code key}, and nothing else: a release arriving after the claim expired and
     * another attempt claimed the key, or after it was marked done, leaves the key as it is.
     */
    void release(String key, String owner);
}
