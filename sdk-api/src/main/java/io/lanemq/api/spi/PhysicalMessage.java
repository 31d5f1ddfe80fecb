package io.lanemq.api.spi;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A message addressed to a physical topic. The body array is owned by the message: neither side
 * modifies it after construction.
 */
public record PhysicalMessage(String topic, byte[] body, List<String> keys, Optional<String> tag,
                              Map<String, String> properties, Optional<String> shardingKey) {
    public PhysicalMessage {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(body, "body");
        keys = List.copyOf(keys);
        Objects.requireNonNull(tag, "tag");
        properties = Map.copyOf(properties);
        Objects.requireNonNull(shardingKey, "shardingKey");
    }
}
