package io.lanemq.rocketmq;

import java.util.List;
import org.apache.rocketmq.client.producer.MessageQueueSelector;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * Picks a queue by the sharding key's hash, so equal keys share a queue and are consumed in send
 * order. {@link String#hashCode()} is fixed by the Java specification, so every producer in every
 * JVM agrees on the queue while the queue count is unchanged; {@code floorMod} keeps negative
 * hashes (including {@code Integer.MIN_VALUE}, where {@code Math.abs} fails) in range. RocketMQ
 * sorts a topic's queues by broker name and queue id before calling a selector, so the index is
 * stable too.
 */
final class ShardingKeySelector implements MessageQueueSelector {
    static final ShardingKeySelector INSTANCE = new ShardingKeySelector();

    private ShardingKeySelector() {
    }

    static int queueIndex(String shardingKey, int queueCount) {
        return Math.floorMod(shardingKey.hashCode(), queueCount);
    }

    @Override
    public MessageQueue select(List<MessageQueue> queues, Message message, Object shardingKey) {
        return queues.get(queueIndex((String) shardingKey, queues.size()));
    }
}
