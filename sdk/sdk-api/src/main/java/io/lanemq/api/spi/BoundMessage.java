package io.lanemq.api.spi;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A message as one cluster delivered it.
 *
 * @param deliveryAttempt 1 on first delivery
 */
public record BoundMessage(String messageId, String topic, byte[] body, List<String> keys, Optional<String> tag,
                           Map<String, String> properties, Optional<String> shardingKey, String brokerName,
                           int queueId, long queueOffset, int deliveryAttempt, long bornTimestamp) {
    public BoundMessage {
        keys = List.copyOf(keys);
        properties = Map.copyOf(properties);
    }
}
