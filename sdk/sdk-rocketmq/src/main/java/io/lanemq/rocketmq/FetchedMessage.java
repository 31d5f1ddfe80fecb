package io.lanemq.rocketmq;

import io.lanemq.api.spi.BoundMessage;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * A message as a service below the SDK's routing read it from a queue (through
 * {@link io.lanemq.rocketmq.reader.QueueReader}): where it was stored and everything stored with it, RocketMQ's
 * system properties included, so a copy of it can be sent on unchanged ({@link GroupTopics}) or answered
 * ({@link RawProducer#reply}). {@link #toBoundMessage()} is the message as the SDK's own consumers see it.
 *
 * <p>Immutable as far as the services are concerned: the body array is shared with the read message and must not be
 * written to.
 *
 * @param properties every property as stored, RocketMQ's included (unmodifiable)
 * @param reconsumeTimes deliveries of this message to its group before this read (0 for a message new to it)
 */
public record FetchedMessage(QueueRef queue, long offset, String msgId, byte[] body, Map<String, String> properties,
                             int reconsumeTimes, long bornTimestamp, long storeTimestamp) {

    public FetchedMessage {
        Objects.requireNonNull(queue, "queue");
        body = body == null ? new byte[0] : body;
        properties = properties == null ? Map.of() : Collections.unmodifiableMap(properties);
    }

    /** The one conversion from RocketMQ's read message; public for the reader and for tests. */
    public static FetchedMessage of(MessageExt message) {
        return new FetchedMessage(new QueueRef(message.getTopic(), message.getBrokerName(), message.getQueueId()),
                message.getQueueOffset(), message.getMsgId(), message.getBody(), message.getProperties(),
                message.getReconsumeTimes(), message.getBornTimestamp(), message.getStoreTimestamp());
    }

    /** The property's value, or null. */
    public String property(String name) {
        return properties.get(name);
    }

    /** The keys the sender gave, in order. */
    public List<String> keys() {
        String keys = properties.get(MessageConst.PROPERTY_KEYS);
        if (keys == null || keys.isBlank()) {
            return List.of();
        }
        return Arrays.stream(keys.split(MessageConst.KEY_SEPARATOR)).filter(key -> !key.isEmpty()).toList();
    }

    /** The tag, if the sender gave one. */
    public Optional<String> tag() {
        return Optional.ofNullable(properties.get(MessageConst.PROPERTY_TAGS)).filter(tag -> !tag.isEmpty());
    }

    /** The requester's client when the message was sent as a request (RocketMQ's request-reply), else empty. */
    public Optional<String> replyToClient() {
        return Optional.ofNullable(properties.get(MessageConst.PROPERTY_MESSAGE_REPLY_TO_CLIENT));
    }

    /** The message as the SDK's consumers see it: its id, original topic, user properties only. */
    public BoundMessage toBoundMessage() {
        return MessageMapping.toBoundMessage(this);
    }

    @Override
    public String toString() {
        return "FetchedMessage[" + queue + " offset " + offset + ", msgId=" + msgId + "]";
    }
}
