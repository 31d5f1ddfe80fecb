package io.lanemq.rocketmq;

import java.util.List;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyContext;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * Unordered consumption. The consumer is configured for one message per call, so RECONSUME_LATER
 * never sends back a message that was consumed; RocketMQ then redelivers through the group's
 * retry topic with its growing back-off.
 */
final class ConcurrentListenerAdapter implements MessageListenerConcurrently {
    private final ListenerInvoker invoker;

    ConcurrentListenerAdapter(ListenerInvoker invoker) {
        this.invoker = invoker;
    }

    @Override
    public ConsumeConcurrentlyStatus consumeMessage(List<MessageExt> messages, ConsumeConcurrentlyContext context) {
        return invoker.consumedAll(messages)
                ? ConsumeConcurrentlyStatus.CONSUME_SUCCESS
                : ConsumeConcurrentlyStatus.RECONSUME_LATER;
    }
}
