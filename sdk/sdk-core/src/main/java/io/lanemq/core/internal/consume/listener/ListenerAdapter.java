package io.lanemq.core.internal.consume.listener;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.MessageContext;
import io.lanemq.api.MessageListener;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.spi.BoundListener;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.Ticker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands one cluster's messages to the application's listener under the logic topic. A listener
 * that throws or answers null has not processed the message, so it is retried, never dropped.
 */
public final class ListenerAdapter implements BoundListener {
    private static final Logger log = LoggerFactory.getLogger(ListenerAdapter.class);

    private final String logicTopic;
    private final String group;
    private final String cluster;
    private final MessageListener listener;
    private final SdkMetrics metrics;
    private final Ticker ticker;
    /** After how many deliveries the binding sends a message to the dead-letter topic; 0 when it is not known here. */
    private final int maxDeliveryAttempts;
    /** How a retry's back-off delay is kept; null when the subscription has no back-off. */
    private final SdkMetrics.RetryPath retryPath;

    public ListenerAdapter(String logicTopic, String group, String cluster, MessageListener listener, SdkMetrics metrics,
                           Ticker ticker) {
        this(logicTopic, group, cluster, listener, metrics, ticker, 0, null);
    }

    /**
     * An adapter whose messages tell the listener their {@link ReceivedMessage#maxDeliveryAttempts()}, and whose
     * retries are counted by {@code retryPath} (null: the subscription has no back-off).
     */
    public ListenerAdapter(String logicTopic, String group, String cluster, MessageListener listener, SdkMetrics metrics,
                           Ticker ticker, int maxDeliveryAttempts, SdkMetrics.RetryPath retryPath) {
        this.maxDeliveryAttempts = maxDeliveryAttempts;
        this.retryPath = retryPath;
        this.logicTopic = logicTopic;
        this.group = group;
        this.cluster = cluster;
        this.listener = listener;
        this.metrics = metrics;
        this.ticker = ticker;
    }

    @Override
    public ConsumeResult onMessage(BoundMessage message) {
        return consume(new DeliveredMessage(logicTopic, cluster, message, maxDeliveryAttempts));
    }

    /** Runs the listener on a message of this adapter's topic and group, also one another member forwarded here. */
    public ConsumeResult consume(ReceivedMessage delivered) {
        long start = ticker.read();
        ConsumeResult result;
        // The listener runs in the message's context, so what it sends carries the message's lane and marks on.
        try (MessageContext.Scope ignored = delivered.context().enter()) {
            result = listener.consume(delivered);
            if (result == null) {
                log.warn("listener returned null for {} [logicTopic={}, group={}, cluster={}]; retrying it later",
                        delivered, logicTopic, group, cluster);
                result = ConsumeResult.RETRY_LATER;
            }
        } catch (RuntimeException | Error e) {
            log.warn("listener failed on {} [logicTopic={}, group={}, cluster={}]; retrying it later",
                    delivered, logicTopic, group, cluster, e);
            result = ConsumeResult.RETRY_LATER;
        }
        SdkMetrics.ConsumeOutcome outcome = outcome(result, delivered);
        metrics.consumed(logicTopic, group, cluster, outcome, ticker.read() - start);
        if (outcome == SdkMetrics.ConsumeOutcome.RETRY && retryPath != null) {
            metrics.retryBackoff(logicTopic, group, retryPath);
        }
        return result;
    }

    /** A retry at the last allowed attempt is the broker's dead letter; known only where the maximum is known. */
    static SdkMetrics.ConsumeOutcome outcome(ConsumeResult result, ReceivedMessage delivered) {
        return switch (result) {
            case SUCCESS -> SdkMetrics.ConsumeOutcome.SUCCESS;
            case DEAD_LETTER -> SdkMetrics.ConsumeOutcome.DEAD_LETTER;
            case RETRY_LATER -> delivered.lastDeliveryAttempt() ? SdkMetrics.ConsumeOutcome.DEAD_LETTER
                    : SdkMetrics.ConsumeOutcome.RETRY;
        };
    }
}
