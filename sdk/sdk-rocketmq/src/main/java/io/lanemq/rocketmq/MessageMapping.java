package io.lanemq.rocketmq;

import io.lanemq.api.InvalidMessageException;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.api.spi.BoundSendResult;
import io.lanemq.api.spi.PhysicalMessage;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageClientIDSetter;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * Converts between the SPI's value types and RocketMQ's, in both directions, so the two stay
 * symmetric: what {@link #toRocketMq} writes, {@link #toBoundMessage} reads back unchanged.
 *
 * <p>The sharding key travels in RocketMQ's own {@link MessageConst#PROPERTY_SHARDING_KEY}
 * (the property the 5.x gRPC proxy uses for message groups) so that any consumer can see it.
 * Message ids are RocketMQ's client-side unique id ({@code UNIQ_KEY}), which the producer knows
 * before the broker answers and which survives retries, so sender and receiver agree on it.
 */
final class MessageMapping {
    private MessageMapping() {
    }

    /** Validates everything RocketMQ would refuse or silently mangle, then builds the message; nothing is sent on failure. */
    static Message toRocketMq(PhysicalMessage message) throws InvalidMessageException {
        Message target = new Message(message.topic(), message.body());
        for (Map.Entry<String, String> property : message.properties().entrySet()) {
            String name = property.getKey();
            String value = property.getValue();
            if (ReservedProperties.isReserved(name)) {
                throw invalid(message, "property '" + name + "' is reserved by RocketMQ; choose another name");
            }
            if (name.isBlank()) {
                throw invalid(message, "property names must not be blank");
            }
            if (value.isEmpty()) {
                // RocketMQ's property decoder drops empty values, so the receiver would not see the property.
                throw invalid(message, "property '" + name + "' must not have an empty value");
            }
            if (hasSeparator(name) || hasSeparator(value)) {
                throw invalid(message, "property '" + name + "' contains a control character RocketMQ uses to separate properties");
            }
            MessageAccessor.putProperty(target, name, value);
        }
        if (!message.keys().isEmpty()) {
            for (String key : message.keys()) {
                if (key.isBlank() || key.contains(MessageConst.KEY_SEPARATOR)) {
                    throw invalid(message, "key '" + key + "' must not be blank or contain a space (RocketMQ joins keys with spaces)");
                }
            }
            target.setKeys(message.keys());
        }
        message.tag().ifPresent(target::setTags);
        message.shardingKey().ifPresent(key -> MessageAccessor.putProperty(target, MessageConst.PROPERTY_SHARDING_KEY, key));
        // Given, RocketMQ's producer keeps it (it sets an id only where there is none), batches included.
        message.messageId().ifPresent(id -> MessageAccessor.putProperty(target,
                MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, id));
        return target;
    }

    static BoundSendResult toBoundSendResult(SendResult result, String topic) {
        MessageQueue queue = result.getMessageQueue();
        return new BoundSendResult(result.getMsgId(), topic, queue == null ? null : queue.getBrokerName(),
                queue == null ? -1 : queue.getQueueId(), result.getQueueOffset(), SendStatuses.storedAsConfigured(result));
    }

    /**
     * The result handed to a local transaction. RocketMQ calls the transaction listener with the
     * message only, not the send result, so the broker, queue and offset are not known yet:
     * brokerName is null and queueId and queueOffset are -1. The message id is final.
     */
    static BoundSendResult preparedResult(Message prepared) {
        return new BoundSendResult(messageId(prepared, null), prepared.getTopic(), null, -1, -1L);
    }

    static BoundMessage toBoundMessage(MessageExt message) {
        return toBoundMessage(FetchedMessage.of(message));
    }

    static BoundMessage toBoundMessage(FetchedMessage message) {
        Map<String, String> all = message.properties();
        Map<String, String> user = new HashMap<>();
        for (Map.Entry<String, String> property : all.entrySet()) {
            if (!ReservedProperties.isReserved(property.getKey())) {
                user.put(property.getKey(), property.getValue());
            }
        }
        String uniqueId = all.get(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
        return new BoundMessage(uniqueId != null ? uniqueId : message.msgId(), originalTopic(message), message.body(),
                message.keys(), message.tag(), user, Optional.ofNullable(all.get(MessageConst.PROPERTY_SHARDING_KEY)),
                message.queue().broker(), message.queue().queueId(), message.offset(), message.reconsumeTimes() + 1,
                message.bornTimestamp());
    }

    /**
     * The push consumer already restores the original topic of a retry delivery; this covers
     * paths that do not (a check-back, the services' readers), so the application never sees
     * {@code %RETRY%group}.
     */
    private static String originalTopic(FetchedMessage message) {
        String topic = message.queue().topic();
        String retryTopic = message.property(MessageConst.PROPERTY_RETRY_TOPIC);
        if (topic != null && topic.startsWith(MixAll.RETRY_GROUP_TOPIC_PREFIX) && retryTopic != null) {
            return retryTopic;
        }
        return topic;
    }

    private static String messageId(Message message, String fallback) {
        String id = MessageClientIDSetter.getUniqID(message);
        return id != null ? id : fallback;
    }

    private static boolean hasSeparator(String text) {
        return text.indexOf(MessageDecoder.NAME_VALUE_SEPARATOR) >= 0 || text.indexOf(MessageDecoder.PROPERTY_SEPARATOR) >= 0;
    }

    private static InvalidMessageException invalid(PhysicalMessage message, String reason) {
        return new InvalidMessageException(reason + " (topic " + message.topic() + ")", null);
    }
}
