package io.lanemq.delay.server;

import io.lanemq.api.Message;
import io.lanemq.core.delay.DelayProtocol;
import io.lanemq.delay.DelayId;
import io.lanemq.delay.DelayedRecord;
import io.lanemq.api.spi.PhysicalMessage;
import io.lanemq.rocketmq.FetchedMessage;
import io.lanemq.rocketmq.ReservedProperties;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Converts between the internal topic's wire format (see the delay contract), the engine's
 * records, and what is finally delivered. A record keeps the original user properties plus the
 * original tag and sharding key (in their {@code LANEMQ_DELAY_*} properties) so a re-enqueued copy
 * is the same message; delivery strips every {@code LANEMQ_DELAY_*} property.
 */
final class InternalMessages {

    private InternalMessages() {
    }

    /** What an internal-topic message asks of the server. */
    sealed interface Request permits Schedule, Cancel {
    }

    /** Hold {@code record} until it is due. */
    record Schedule(DelayedRecord record) implements Request {
    }

    /** Cancel the record with this id. */
    record Cancel(DelayId id) implements Request {
    }

    /**
     * Reads what {@code m} asks for, refusing with an {@link IllegalArgumentException} naming the problem anything that
     * could never be served (no or an unknown kind, a malformed id, a schedule whose message could never be delivered):
     * whatever a producer put on the internal topic, nothing else may escape, or the queue would stop behind it.
     */
    static Request parse(FetchedMessage m, String cluster) {
        String kind = m.property(DelayProtocol.PROPERTY_KIND);
        if (DelayProtocol.KIND_SCHEDULE.equals(kind)) {
            DelayedRecord record = toRecord(m, cluster);
            toDelivery(record); // refuse now what could never be delivered
            return new Schedule(record);
        }
        if (DelayProtocol.KIND_CANCEL.equals(kind)) {
            return new Cancel(DelayId.parse(require(m, DelayProtocol.PROPERTY_ID)));
        }
        throw new IllegalArgumentException("unknown " + DelayProtocol.PROPERTY_KIND + " '" + kind + "' [msgId=" + m.msgId()
                + ", queue=" + m.queue().queueId() + ", offset=" + m.offset() + "]");
    }

    /** A SCHEDULE message as a record to store; the target cluster is where it was consumed. */
    static DelayedRecord toRecord(FetchedMessage m, String cluster) {
        DelayId id = DelayId.parse(require(m, DelayProtocol.PROPERTY_ID));
        Map<String, String> properties = new LinkedHashMap<>();
        m.properties().forEach((name, value) -> {
            if (!ReservedProperties.isReserved(name) && !name.equals(DelayProtocol.PROPERTY_KIND)
                    && !name.equals(DelayProtocol.PROPERTY_ID) && !name.equals(DelayProtocol.PROPERTY_LOGIC_TOPIC)) {
                properties.put(name, value);
            }
        });
        return DelayedRecord.builder().id(id).target(require(m, DelayProtocol.PROPERTY_LOGIC_TOPIC), cluster).keys(m.keys())
                .properties(properties).body(m.body()).build();
    }

    /** The message the record stood for, to its logic topic through the SDK. */
    static Message toDelivery(DelayedRecord record) {
        Message.Builder b = Message.builder(record.topic()).body(record.body());
        if (!record.keys().isEmpty()) {
            b.keys(record.keys().toArray(String[]::new));
        }
        record.properties().forEach((name, value) -> {
            if (name.equals(DelayProtocol.PROPERTY_TAG)) {
                b.tag(value);
            } else if (name.equals(DelayProtocol.PROPERTY_SHARDING_KEY)) {
                b.shardingKey(value);
            } else if (!name.startsWith(DelayProtocol.PROPERTY_PREFIX)) {
                b.property(name, value);
            }
        });
        return b.build();
    }

    /**
     * The record as a SCHEDULE message again, for its queue of the internal topic (same id, same queue); its id is
     * the sharding key.
     */
    static PhysicalMessage toReenqueue(DelayedRecord record, String internalTopic) {
        Map<String, String> properties = new LinkedHashMap<>(record.properties());
        properties.put(DelayProtocol.PROPERTY_KIND, DelayProtocol.KIND_SCHEDULE);
        properties.put(DelayProtocol.PROPERTY_ID, record.id().toString());
        properties.put(DelayProtocol.PROPERTY_LOGIC_TOPIC, record.topic());
        return new PhysicalMessage(internalTopic, record.body(), record.keys(), Optional.empty(), properties,
                Optional.of(record.id().toString()));
    }

    static String require(FetchedMessage m, String property) {
        String value = m.property(property);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("internal message without " + property + " [msgId=" + m.msgId()
                    + ", queue=" + m.queue().queueId() + ", offset=" + m.offset() + "]");
        }
        return value;
    }
}
