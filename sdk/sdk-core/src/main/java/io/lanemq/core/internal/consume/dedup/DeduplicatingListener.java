package io.lanemq.core.internal.consume.dedup;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Deduplication;
import io.lanemq.api.DeduplicationStore;
import io.lanemq.api.MessageListener;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.Subscription;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.LogThrottle;
import io.lanemq.support.Ticker;
import io.micrometer.core.instrument.Counter;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A subscription's listener behind a window of identities already processed (see {@link Deduplication}): one
 * instance per subscription, in front of every cluster's deliveries, so the copy of a message consumed from the
 * other cluster is recognised too.
 *
 * <p>An identity is first claimed ({@code RUNNING}), and only marked {@code DONE} once the listener succeeded;
 * a failure releases the claim, so the retry runs the listener again. Caffeine bounds the window by size and
 * time on the injected ticker; a claim counts as an entry, so a full window may evict it and let a concurrent
 * copy through, which costs a duplicate, never a loss.
 *
 * <p>With a shared {@link DeduplicationStore} the local window stays in front: the store is asked only about an
 * identity the window does not know, and follows the same claim / done / release steps (its claim expiring after
 * the claim ttl, so a crashed instance does not hold a message for ever). A store call that throws counts as "not
 * known": the message is processed (a possible duplicate, never a loss), the failure counted and logged through a
 * throttle. The store bounds its own calls' time (its contract), so no call here waits on it without end. An
 * identity the store reports done is kept in the local window from then on (a window of its own, so a local
 * memory up to twice the window: the cost is only that a copy is dropped a little longer).
 */
public final class DeduplicatingListener implements MessageListener {
    private static final Logger LOG = LoggerFactory.getLogger(DeduplicatingListener.class);

    private enum State { RUNNING, DONE }

    private final MessageListener listener;
    private final Deduplication.Identity identity;
    private final ConcurrentMap<String, State> seen;
    private final Counter dropped;
    private final DeduplicationStore store;
    private final String keyPrefix;
    private final Duration window;
    private final Duration claimTtl;
    /** Claims carry this instance's id and a sequence: a late release can only remove its own claim. */
    private final String instance = UUID.randomUUID().toString();
    private final AtomicLong attempts = new AtomicLong();
    private final Counter claimFailures;
    private final Counter doneFailures;
    private final Counter releaseFailures;
    private final LogThrottle storeFailureLog;

    private DeduplicatingListener(MessageListener listener, Subscription subscription, Deduplication settings,
                                  SdkMetrics metrics, Ticker ticker) {
        this.listener = listener;
        this.dropped = metrics.duplicatesDropped(subscription.logicTopic(), subscription.consumerGroup());
        this.store = settings.store().orElse(null);
        this.keyPrefix = subscription.consumerGroup() + ":" + subscription.logicTopic() + ":";
        this.window = settings.window();
        this.claimTtl = settings.claimTtl();
        this.claimFailures = metrics.dedupStoreFailures(subscription.logicTopic(), subscription.consumerGroup(), "claim");
        this.doneFailures = metrics.dedupStoreFailures(subscription.logicTopic(), subscription.consumerGroup(), "done");
        this.releaseFailures = metrics.dedupStoreFailures(subscription.logicTopic(), subscription.consumerGroup(), "release");
        this.storeFailureLog = LogThrottle.every(Duration.ofMinutes(1), ticker);
        this.identity = settings.identity();
        Cache<String, State> cache = Caffeine.newBuilder()
                .maximumSize(settings.maxEntries())
                .expireAfterWrite(settings.window())
                .ticker(ticker::read)
                .build();
        this.seen = cache.asMap();
    }

    /** {@code listener} behind the subscription's own deduplication, or itself when it has none. */
    public static MessageListener wrap(Subscription subscription, MessageListener listener, SdkMetrics metrics, Ticker ticker) {
        return subscription.deduplication()
                .<MessageListener>map(settings -> new DeduplicatingListener(listener, subscription, settings, metrics, ticker))
                .orElse(listener);
    }

    /**
     * {@code listener} behind the subscription's deduplication, else its group's in the platform configuration as
     * it is now, or itself when neither sets one. The group's setting is read once: a reload that changes it
     * applies to consumers subscribed afterwards (a window's memory cannot be carried over to new settings).
     */
    public static MessageListener wrap(Subscription subscription, PlatformConfig config, MessageListener listener,
                                       SdkMetrics metrics, Ticker ticker) {
        Optional<Deduplication> settings = subscription.deduplication().or(() -> config.topic(subscription.logicTopic())
                .map(topic -> topic.consumerGroups().get(subscription.consumerGroup()))
                .flatMap(ConsumerConfig::deduplication));
        return settings.<MessageListener>map(s -> new DeduplicatingListener(listener, subscription, s, metrics, ticker))
                .orElse(listener);
    }

    @Override
    public ConsumeResult consume(ReceivedMessage message) {
        String key = identityOf(message);
        if (key == null) {
            return listener.consume(message);
        }
        State before = seen.putIfAbsent(key, State.RUNNING);
        if (before == State.DONE) {
            dropped.increment();
            return ConsumeResult.SUCCESS;
        }
        if (before == State.RUNNING) {
            // Another copy is being processed now: whether this one is a duplicate depends on how that one ends.
            return ConsumeResult.RETRY_LATER;
        }
        String sharedKey = keyPrefix + key;
        String owner = null;
        if (store != null) {
            owner = instance + ":" + attempts.incrementAndGet();
            DeduplicationStore.Claim claim = claimShared(sharedKey, owner);
            if (claim == DeduplicationStore.Claim.DONE) {
                seen.put(key, State.DONE);
                dropped.increment();
                return ConsumeResult.SUCCESS;
            }
            if (claim == DeduplicationStore.Claim.RUNNING) {
                seen.remove(key, State.RUNNING);
                return ConsumeResult.RETRY_LATER;
            }
            if (claim == null) {
                owner = null; // unreachable: nothing of ours to release
            }
        }
        boolean done = false;
        try {
            ConsumeResult result = listener.consume(message);
            done = result == ConsumeResult.SUCCESS;
            return result;
        } finally {
            if (done) {
                seen.put(key, State.DONE); // the window starts at the success
                if (store != null) {
                    doneShared(sharedKey); // even without a claim: other instances learn of it if the store is back
                }
            } else {
                seen.remove(key, State.RUNNING);
                if (owner != null) {
                    releaseShared(sharedKey, owner);
                }
            }
        }
    }

    /** The store's answer, or null when it failed: then the message is processed. */
    private DeduplicationStore.Claim claimShared(String sharedKey, String owner) {
        try {
            return Objects.requireNonNull(store.claim(sharedKey, owner, claimTtl), "the store's claim answer");
        } catch (RuntimeException e) {
            storeFailed(claimFailures, "claim", sharedKey, e);
            return null;
        }
    }

    private void doneShared(String sharedKey) {
        try {
            store.done(sharedKey, window);
        } catch (RuntimeException e) {
            storeFailed(doneFailures, "done", sharedKey, e);
        }
    }

    private void releaseShared(String sharedKey, String owner) {
        try {
            store.release(sharedKey, owner);
        } catch (RuntimeException e) {
            storeFailed(releaseFailures, "release", sharedKey, e); // the claim expires by its ttl
        }
    }

    private void storeFailed(Counter failures, String operation, String sharedKey, RuntimeException e) {
        failures.increment();
        storeFailureLog.warn(LOG, operation, "deduplication store {} failed [key={}]: {}; the message is processed "
                + "without it (a copy may run twice)", operation, sharedKey, e.toString());
    }

    private String identityOf(ReceivedMessage message) {
        return switch (identity) {
            case MESSAGE_ID -> message.properties().getOrDefault(Deduplication.ORIGINAL_MESSAGE_ID_PROPERTY, message.messageId());
            case FIRST_KEY -> message.keys().isEmpty() ? null : message.keys().get(0);
        };
    }
}
