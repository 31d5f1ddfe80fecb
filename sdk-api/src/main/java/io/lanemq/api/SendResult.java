package io.lanemq.api;

/**
 * Where a sent message was stored: the broker acknowledged it, so it will be delivered at least once.
 *
 * @param messageId     the broker-assigned id, unique within the cluster
 * @param logicTopic    the logic topic the application named
 * @param cluster       the cluster (and so the IDC) that stored it
 * @param physicalTopic the topic on that cluster
 * @param queueId       the queue within the physical topic
 * @param queueOffset   the message's offset in that queue
 */
public record SendResult(String messageId, String logicTopic, String cluster, String physicalTopic,
                         int queueId, long queueOffset) {
}
