package io.lanemq.api.spi;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A message addressed to a physical topic. The body array is owned by the message: neither side
 * modifies it after construction.
 *
 * @param messageId the id the message is stored under, given by the SDK so that every attempt of one send (on one
 *                  cluster, then another) stores the same id and a consumer can recognise the copies; empty lets the
 *                  binding choose one per attempt (see {@link MessagingBinding#newMessageId()})
 */
public record PhysicalMessage(String topic, byte[] body, List<String> keys, Optional<String> tag,
                              Map<String, String> properties, Optional<String> shardingKey, Optional<String> messageId) {
    public PhysicalMessage {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(body, "body");
        keys = List.copyOf(keys);
        Objects.requireNonNull(tag, "tag");
        properties = Map.copyOf(properties);
        Objects.requireNonNull(shardingKey, "shardingKey");
        Objects.requireNonNull(messageId, "messageId");
    }

    /** A message whose id the binding chooses. */
    public PhysicalMessage(String topic, byte[] body, List<String> keys, Optional<String> tag,
                           Map<String, String> properties, Optional<String> shardingKey) {
        this(topic, body, keys, tag, properties, shardingKey, Optional.empty());
    }
}
