package io.lanemq.api.spi;

/** Where one cluster stored a message. */
public record BoundSendResult(String messageId, String topic, String brokerName, int queueId, long queueOffset) {
}
