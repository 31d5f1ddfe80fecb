package io.lanemq.core.internal.consume.proxy;

import io.lanemq.api.spi.BoundMessage;
import io.lanemq.proxy.protocol.Delivery;
import java.util.Optional;

/** Reads a proxy's Delivery as the message a cluster delivered, so both modes share one listener path. */
final class ProxyDeliveries {
    private ProxyDeliveries() {
    }

    static BoundMessage toBound(Delivery delivery) {
        return new BoundMessage(delivery.getMessageId(), delivery.getPhysicalTopic(), delivery.getBody().toByteArray(),
                delivery.getKeysList(), nonEmpty(delivery.getTag()), delivery.getPropertiesMap(),
                nonEmpty(delivery.getShardingKey()), "", delivery.getQueueId(), delivery.getQueueOffset(),
                delivery.getAttempt(), delivery.getBornTimestampMs());
    }

    private static Optional<String> nonEmpty(String value) {
        return value.isEmpty() ? Optional.empty() : Optional.of(value);
    }
}
