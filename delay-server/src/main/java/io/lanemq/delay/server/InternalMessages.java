package io.lanemq.delay.server;

import io.lanemq.api.Message;
import io.lanemq.core.delay.DelayProtocol;
import io.lanemq.delay.DelayId;
import io.lanemq.delay.DelayedRecord;
import io.lanemq.rocketmq.ReservedProperties;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * Converts between the internal topic's wire format (see the delay contract), the engine's
 * records, and what is finally delivered. A record keeps the original user properties plus the
 * original tag and sharding key (in their {@code LANEMQ_DELAY_*} properties) so a re-enqueued copy
 * is the same message; delivery strips every {@code LANEMQ_DELAY_*} property.
 */
final class InternalMessages {

    private InternalMessages() {
    }

    /** A SCHEDULE message as a record to store; the target cluster is where it was consumed. */
    static DelayedRecord toRecord(MessageExt m, String cluster) {
        DelayId id = DelayId.parse(require(m, DelayProtocol.PROPERTY_ID));
        Map<String, String> properties = new LinkedHashMap<>();
        m.getProperties().forEach((name, value) -> {
            if (!ReservedProperties.isReserved(name) && !name.equals(DelayProtocol.PROPERTY_KIND)
                    && !name.equals(DelayProtocol.PROPERTY_ID) && !name.equals(DelayProtocol.PROPERTY_LOGIC_TOPIC)) {
                properties.put(name, value);
            }
        });
        String keys = m.getKeys();
        List<String> keyList = keys == null || keys.isBlank() ? List.of()
                : Arrays.stream(keys.split(MessageConst.KEY_SEPARATOR)).filter(k -> !k.isEmpty()).toList();
        return DelayedRecord.builder().id(id).target(require(m, DelayProtocol.PROPERTY_LOGIC_TOPIC), cluster).keys(keyList)
                .properties(properties).body(m.getBody() == null ? new byte[0] : m.getBody()).build();
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

    /** The record as a SCHEDULE message again, for its queue of the internal topic (same id, same queue). */
    static org.apache.rocketmq.common.message.Message toReenqueue(DelayedRecord record, String internalTopic) {
        org.apache.rocketmq.common.message.Message m =
                new org.apache.rocketmq.common.message.Message(internalTopic, record.body());
        if (!record.keys().isEmpty()) {
            m.setKeys(record.keys());
        }
        record.properties().forEach(m::putUserProperty);
        m.putUserProperty(DelayProtocol.PROPERTY_KIND, DelayProtocol.KIND_SCHEDULE);
        m.putUserProperty(DelayProtocol.PROPERTY_ID, record.id().toString());
        m.putUserProperty(DelayProtocol.PROPERTY_LOGIC_TOPIC, record.topic());
        MessageAccessor.putProperty(m, MessageConst.PROPERTY_SHARDING_KEY, record.id().toString());
        return m;
    }

    static String require(MessageExt m, String property) {
        String value = m.getProperty(property);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("internal message without " + property + " [msgId=" + m.getMsgId()
                    + ", queue=" + m.getQueueId() + ", offset=" + m.getQueueOffset() + "]");
        }
        return value;
    }
}
