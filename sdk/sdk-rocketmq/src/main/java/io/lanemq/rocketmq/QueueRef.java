package io.lanemq.rocketmq;

import org.apache.rocketmq.common.message.MessageQueue;

/**
 * One queue of a topic on one broker, as the services below the SDK's routing name it (the consumer proxy's
 * fetchers, the delay server's ledgers and checkpoint): equal when topic, broker and queue id are. RocketMQ's own
 * {@code MessageQueue} stays inside the binding; {@link #of(MessageQueue)} and {@link #toMessageQueue()} are the one
 * conversion.
 */
public record QueueRef(String topic, String broker, int queueId) {

    /** For the binding (and tests that build RocketMQ's type). */
    public static QueueRef of(MessageQueue queue) {
        return new QueueRef(queue.getTopic(), queue.getBrokerName(), queue.getQueueId());
    }

    /** For the binding (and tests that build RocketMQ's type). */
    public MessageQueue toMessageQueue() {
        return new MessageQueue(topic, broker, queueId);
    }

    @Override
    public String toString() {
        return topic + "@" + broker + "#" + queueId;
    }
}
