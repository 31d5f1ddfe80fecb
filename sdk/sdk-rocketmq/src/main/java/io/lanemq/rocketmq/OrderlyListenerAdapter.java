package io.lanemq.rocketmq;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.RetryBackoff;
import java.util.List;
import java.util.Optional;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyContext;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.common.message.MessageExt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ordered consumption: a message that is not consumed pauses its queue briefly and comes again,
 * before any later message of the queue, so send order is kept. A dead letter is sent back to its
 * broker with delay level -1 (the broker stores it in the group's dead-letter topic, as RocketMQ's
 * own orderly consumer does past its maximum reconsume times) and the queue moves on; if that send
 * fails, the queue pauses and the message comes again. With a back-off, the queue pauses for exactly the
 * back-off's delay of the attempt (RocketMQ's orderly consumer takes any pause), not its default second.
 */
final class OrderlyListenerAdapter implements MessageListenerOrderly {
    private static final Logger LOG = LoggerFactory.getLogger(OrderlyListenerAdapter.class);

    private final ListenerInvoker invoker;
    private final SendBack sendBack;
    private final Optional<RetryBackoff> backoff;

    OrderlyListenerAdapter(ListenerInvoker invoker, SendBack sendBack, Optional<RetryBackoff> backoff) {
        this.invoker = invoker;
        this.sendBack = sendBack;
        this.backoff = backoff;
    }

    @Override
    public ConsumeOrderlyStatus consumeMessage(List<MessageExt> messages, ConsumeOrderlyContext context) {
        for (MessageExt message : messages) {
            ConsumeResult result = invoker.consume(message);
            if (result == ConsumeResult.RETRY_LATER || result == ConsumeResult.DEAD_LETTER && !deadLettered(message)) {
                if (result == ConsumeResult.RETRY_LATER && backoff.isPresent()) {
                    context.setSuspendCurrentQueueTimeMillis(backoff.get().delayAfter(message.getReconsumeTimes() + 1).toMillis());
                }
                return ConsumeOrderlyStatus.SUSPEND_CURRENT_QUEUE_A_MOMENT;
            }
        }
        return ConsumeOrderlyStatus.SUCCESS;
    }

    private boolean deadLettered(MessageExt message) {
        try {
            sendBack.send(message, ConcurrentListenerAdapter.DEAD_LETTER_LEVEL);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            LOG.warn("could not send message {} to the dead-letter topic; it will be delivered again {}", message.getMsgId(),
                    invoker.context(), e);
            return false;
        }
    }

    /** RocketMQ's consumer send-back: the message to its broker, which stores it by {@code delayLevel}. */
    @FunctionalInterface
    interface SendBack {
        void send(MessageExt message, int delayLevel) throws Exception;
    }
}
