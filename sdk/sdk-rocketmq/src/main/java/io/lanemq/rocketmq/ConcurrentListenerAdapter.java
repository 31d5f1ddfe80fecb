package io.lanemq.rocketmq;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.RetryBackoff;
import java.util.List;
import java.util.Optional;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyContext;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * Unordered consumption. The consumer is configured for one message per call, so RECONSUME_LATER
 * never sends back a message that was consumed; RocketMQ then redelivers through the group's
 * retry topic with its growing back-off. A dead letter is sent back the same way with delay level
 * -1, which RocketMQ's broker takes as "to the group's dead-letter topic now", as it does with a
 * message past its maximum reconsume times. With a back-off, a retry is sent back at the delay level nearest the
 * back-off's delay for the attempt (the retry topic can wait no other delays).
 */
final class ConcurrentListenerAdapter implements MessageListenerConcurrently {
    /** RocketMQ's delay level for "no more attempts": the broker stores the message in %DLQ%group. */
    static final int DEAD_LETTER_LEVEL = -1;

    private final ListenerInvoker invoker;
    private final Optional<RetryBackoff> backoff;

    ConcurrentListenerAdapter(ListenerInvoker invoker, Optional<RetryBackoff> backoff) {
        this.invoker = invoker;
        this.backoff = backoff;
    }

    @Override
    public ConsumeConcurrentlyStatus consumeMessage(List<MessageExt> messages, ConsumeConcurrentlyContext context) {
        ConsumeResult result = invoker.consume(messages);
        if (result == ConsumeResult.SUCCESS) {
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        }
        if (result == ConsumeResult.DEAD_LETTER) {
            context.setDelayLevelWhenNextConsume(DEAD_LETTER_LEVEL);
        } else if (backoff.isPresent()) {
            int attempt = messages.get(messages.size() - 1).getReconsumeTimes() + 1;
            context.setDelayLevelWhenNextConsume(DelayLevels.nearest(backoff.get().delayAfter(attempt)));
        }
        return ConsumeConcurrentlyStatus.RECONSUME_LATER;
    }
}
