package io.lanemq.api.spi;

/**
 * Where one cluster stored a message.
 *
 * @param storedAsConfigured false when the broker stored the message but answered that it is not yet flushed or
 *                           replicated as it is configured to (a flush or replica timeout, no replica): see
 *                           {@link io.lanemq.api.SendResult#storedAsConfigured()}
 */
public record BoundSendResult(String messageId, String topic, String brokerName, int queueId, long queueOffset,
                              boolean storedAsConfigured) {

    /** A message stored as durably as the broker is configured to. */
    public BoundSendResult(String messageId, String topic, String brokerName, int queueId, long queueOffset) {
        this(messageId, topic, brokerName, queueId, queueOffset, true);
    }
}
