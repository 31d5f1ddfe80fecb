package io.lanemq.rocketmq;

import java.util.List;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyContext;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * Ordered consumption: a message that is not consumed pauses its queue briefly and comes again,
 * before any later message of the queue, so send order is kept.
 */
final class OrderlyListenerAdapter implements MessageListenerOrderly {
    private final ListenerInvoker invoker;

    OrderlyListenerAdapter(ListenerInvoker invoker) {
        this.invoker = invoker;
    }

    @Override
    public ConsumeOrderlyStatus consumeMessage(List<MessageExt> messages, ConsumeOrderlyContext context) {
        return invoker.consumedAll(messages)
                ? ConsumeOrderlyStatus.SUCCESS
                : ConsumeOrderlyStatus.SUSPEND_CURRENT_QUEUE_A_MOMENT;
    }
}
