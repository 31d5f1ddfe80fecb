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
 * @param messageId     the broker-assigned id, unique within the cluster
 * @param logicTopic    the logic topic the application named
 * @param cluster       the cluster (and so the IDC) that stored it
 * @param physicalTopic the topic on that cluster
 * @param queueId       the queue within the physical topic
 * @param queueOffset   the message's offset in that queue
 * @param delayId       for a delayed message, the id that cancels it; empty otherwise
 */
public record SendResult(String messageId, String logicTopic, String cluster, String physicalTopic,
                         int queueId, long queueOffset, Optional<String> delayId) {

    public SendResult {
        Objects.requireNonNull(delayId, "delayId");
    }

    /** The result of an ordinary (not delayed) send. */
    public SendResult(String messageId, String logicTopic, String cluster, String physicalTopic, int queueId,
                      long queueOffset) {
        this(messageId, logicTopic, cluster, physicalTopic, queueId, queueOffset, Optional.empty());
    }
}
