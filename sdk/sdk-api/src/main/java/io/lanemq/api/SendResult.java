package io.lanemq.api;

import java.util.Objects;
import java.util.Optional;

/**
 * Where a sent message was stored: the broker acknowledged it, so it will be delivered at least once.
 *
 * <p>For a delayed message ({@link Message#deliverAt()}) the location is that of its copy on the
 * platform's internal delay topic, where the delay server picks it up, and {@link #delayId()}
 * names it for {@link Producer#cancelDelayed(String)}.
 *
 * @param messageId     the message's id, the same on every copy a retry may have stored on either cluster
 * @param logicTopic    the logic topic the application named
 * @param cluster       the cluster (and so the IDC) that stored it
 * @param physicalTopic the topic on that cluster
 * @param queueId       the queue within the physical topic
 * @param queueOffset   the message's offset in that queue
 * @param delayId       for a delayed message, the id that cancels it; empty otherwise
 * @param storedAsConfigured true when the broker stored the message as durably as it is configured to (flushed,
 *                      replicated); false when it answered that the message is in its commit log but not yet flushed or
 *                      replicated (a flush or replica timeout, no replica available). Such a message is delivered like
 *                      any other, but a power loss or the loss of that broker's disk before the flush may lose it.
 *                      The SDK does not send it again (that would store a second copy); a caller that must not lose it
 *                      even then sends it again itself, as the delay server does, and consumers deduplicate
 */
public record SendResult(String messageId, String logicTopic, String cluster, String physicalTopic,
                         int queueId, long queueOffset, Optional<String> delayId, boolean storedAsConfigured) {

    public SendResult {
        Objects.requireNonNull(delayId, "delayId");
    }

    /** A result stored as configured. */
    public SendResult(String messageId, String logicTopic, String cluster, String physicalTopic, int queueId,
                      long queueOffset, Optional<String> delayId) {
        this(messageId, logicTopic, cluster, physicalTopic, queueId, queueOffset, delayId, true);
    }

    /** The result of an ordinary (not delayed) send. */
    public SendResult(String messageId, String logicTopic, String cluster, String physicalTopic, int queueId,
                      long queueOffset) {
        this(messageId, logicTopic, cluster, physicalTopic, queueId, queueOffset, Optional.empty());
    }
}
