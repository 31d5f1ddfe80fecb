package io.lanemq.rocketmq;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.spi.BoundListener;
import java.util.List;
import org.apache.rocketmq.common.message.MessageExt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands one RocketMQ message to the core's listener and says whether it was consumed. An exception
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
     * True when the listener consumed every message, stopping at the first it did not. The
     * consumer asks for one message per call, so a batch never holds a message already consumed.
     */
    boolean consumedAll(List<MessageExt> messages) {
        for (MessageExt message : messages) {
            if (!consumed(message)) {
                return false;
            }
        }
        return true;
    }

    /** True when the listener consumed the message; false when it is to be delivered again. */
    private boolean consumed(MessageExt message) {
        try {
            ConsumeResult result = listener.onMessage(MessageMapping.toBoundMessage(message));
            if (result == null) {
                LOG.warn("listener returned null for message {}; it will be delivered again {}", message.getMsgId(), context);
                return false;
            }
            return result == ConsumeResult.SUCCESS;
        } catch (RuntimeException e) {
            LOG.warn("listener failed on message {} (delivery {}); it will be delivered again {}",
                    message.getMsgId(), message.getReconsumeTimes() + 1, context, e);
            return false;
        }
    }
}
