package io.lanemq.core.internal.consume.dedup;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Deduplication;
import io.lanemq.api.MessageListener;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.Subscription;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.Ticker;
import io.micrometer.core.instrument.Counter;
import java.util.concurrent.ConcurrentMap;

/**
 * A subscription's listener behind a window of identities already processed (see {@link Deduplication}): one
 * instance per subscription, in front of every cluster's deliveries, so the copy of a message consumed from the
 * other cluster is recognised too.
 *
 * <p>An identity is first claimed ({@code RUNNING}), and only marked {@code DONE} once the listener succeeded;
 * a failure releases the claim, so the retry runs the listener again. Caffeine bounds the window by size and
 * time on the injected ticker; a claim counts as an entry, so a full window may evict it and let a concurrent
 * copy through, which costs a duplicate, never a loss.
 */
public final class DeduplicatingListener implements MessageListener {
    private enum State { RUNNING, DONE }

    private final MessageListener listener;
    private final Deduplication.Identity identity;
    private final ConcurrentMap<String, State> seen;
    private final Counter dropped;

    private DeduplicatingListener(MessageListener listener, Deduplication settings, Counter dropped, Ticker ticker) {
        this.listener = listener;
        this.identity = settings.identity();
        Cache<String, State> cache = Caffeine.newBuilder()
                .maximumSize(settings.maxEntries())
                .expireAfterWrite(settings.window())
                .ticker(ticker::read)
                .build();
        this.seen = cache.asMap();
        this.dropped = dropped;
    }

    /** {@code listener} behind the subscription's deduplication, or itself when the subscription has none. */
    public static MessageListener wrap(Subscription subscription, MessageListener listener, SdkMetrics metrics, Ticker ticker) {
        return subscription.deduplication()
                .<MessageListener>map(settings -> new DeduplicatingListener(listener, settings,
                        metrics.duplicatesDropped(subscription.logicTopic(), subscription.consumerGroup()), ticker))
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
        boolean done = false;
        try {
            ConsumeResult result = listener.consume(message);
            done = result == ConsumeResult.SUCCESS;
            return result;
        } finally {
            if (done) {
                seen.put(key, State.DONE); // the window starts at the success
            } else {
                seen.remove(key, State.RUNNING);
            }
        }
    }

    private String identityOf(ReceivedMessage message) {
        return switch (identity) {
            case MESSAGE_ID -> message.messageId();
            case FIRST_KEY -> message.keys().isEmpty() ? null : message.keys().get(0);
        };
    }
}
