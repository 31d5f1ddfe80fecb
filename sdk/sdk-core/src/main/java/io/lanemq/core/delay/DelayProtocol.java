package io.lanemq.core.delay;

import io.lanemq.api.Message;
import io.lanemq.api.spi.PhysicalMessage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The messages the SDK and the delay server exchange on the internal delay topic: the one place
 * both sides read the property names from.
 *
 * <p>A SCHEDULE carries the original body, keys and user properties, plus the delay id, the
 * logic topic to deliver to, and the original tag and sharding key. A CANCEL carries only the id
 * and is sent as a request: the server that holds the id replies with a {@link
 * io.lanemq.api.CancelOutcome} name. Both use the id as sharding key, so a CANCEL lands in the
 * same queue as its SCHEDULE and is read after it.
 *
 * <p>The id is the due time (16 hex digits of epoch milliseconds) and a random nonce, joined by
 * '-': the server finds the record's time bucket from the id alone.
 */
public final class DelayProtocol {
    public static final String PROPERTY_KIND = "LANEMQ_DELAY_KIND";
    public static final String PROPERTY_ID = "LANEMQ_DELAY_ID";
    public static final String PROPERTY_LOGIC_TOPIC = "LANEMQ_DELAY_TOPIC";
    public static final String PROPERTY_TAG = "LANEMQ_DELAY_TAG";
    public static final String PROPERTY_SHARDING_KEY = "LANEMQ_DELAY_SHARDING_KEY";
    /** Every property of the protocol starts with this; the server strips them before delivery. */
    public static final String PROPERTY_PREFIX = "LANEMQ_DELAY_";
    public static final String KIND_SCHEDULE = "SCHEDULE";
    public static final String KIND_CANCEL = "CANCEL";
    /** A CANCEL's body: RocketMQ refuses empty bodies, and the id travels in a property anyway. */
    private static final byte[] CANCEL_BODY = {'c'};

    private DelayProtocol() {
    }

    /** A new id for a record due at {@code dueAtMillis}. */
    public static String newId(long dueAtMillis) {
        return String.format(Locale.ROOT, "%016x-%016x", dueAtMillis, ThreadLocalRandom.current().nextLong());
    }

    /** The due time encoded in {@code id}, or empty when {@code id} is not a delay id. */
    public static Optional<Long> dueAtOf(String id) {
        if (id == null || id.length() != 33 || id.charAt(16) != '-') {
            return Optional.empty();
        }
        try {
            Long.parseUnsignedLong(id.substring(17), 16);
            return Optional.of(Long.parseUnsignedLong(id.substring(0, 16), 16));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The SCHEDULE for {@code message}, addressed to {@code internalTopic}. */
    public static PhysicalMessage schedule(Message message, Map<String, String> userProperties, String internalTopic, String id) {
        Map<String, String> properties = new LinkedHashMap<>(userProperties);
        properties.put(PROPERTY_KIND, KIND_SCHEDULE);
        properties.put(PROPERTY_ID, id);
        properties.put(PROPERTY_LOGIC_TOPIC, message.logicTopic());
        message.tag().ifPresent(tag -> properties.put(PROPERTY_TAG, tag));
        message.shardingKey().ifPresent(key -> properties.put(PROPERTY_SHARDING_KEY, key));
        return new PhysicalMessage(internalTopic, message.body(), message.keys(), Optional.empty(), properties,
                Optional.of(id));
    }

    /** The CANCEL request for the record {@code id}. */
    public static PhysicalMessage cancel(String internalTopic, String id) {
        return new PhysicalMessage(internalTopic, CANCEL_BODY, List.of(), Optional.empty(),
                Map.of(PROPERTY_KIND, KIND_CANCEL, PROPERTY_ID, id), Optional.of(id));
    }
}
