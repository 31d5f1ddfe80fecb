package io.lanemq.rocketmq;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.spi.BoundListener;
import java.util.List;
import org.apache.rocketmq.common.message.MessageExt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands one RocketMQ message to the core's listener and says what became of it. An exception
 * or a null answer means "deliver again later"; it is logged here, where it is handled.
 */
final class ListenerInvoker {
    private static final Logger LOG = LoggerFactory.getLogger(ListenerInvoker.class);

    private final BoundListener listener;
    private final String context;

    ListenerInvoker(BoundListener listener, String cluster, String consumerGroup, String topic) {
        this.listener = listener;
        this.context = "[topic=" + topic + ", cluster=" + cluster + ", consumerGroup=" + consumerGroup + "]";
    }

    /**
     * The outcome of the messages, stopping at the first the listener did not consume: {@code SUCCESS} when it
     * consumed every one, else that message's outcome. The consumer asks for one message per call, so a batch never
     * holds a message already consumed.
     */
    ConsumeResult consume(List<MessageExt> messages) {
        for (MessageExt message : messages) {
            ConsumeResult result = consume(message);
            if (result != ConsumeResult.SUCCESS) {
                return result;
            }
        }
        return ConsumeResult.SUCCESS;
    }

    /** The listener's outcome of one message; RETRY_LATER when it threw or answered null. */
    ConsumeResult consume(MessageExt message) {
        try {
            ConsumeResult result = listener.onMessage(MessageMapping.toBoundMessage(message));
            if (result == null) {
                LOG.warn("listener returned null for message {}; it will be delivered again {}", message.getMsgId(), context);
                return ConsumeResult.RETRY_LATER;
            }
            return result;
        } catch (RuntimeException e) {
            LOG.warn("listener failed on message {} (delivery {}); it will be delivered again {}",
                    message.getMsgId(), message.getReconsumeTimes() + 1, context, e);
            return ConsumeResult.RETRY_LATER;
        }
    }

    String context() {
        return context;
    }
}
