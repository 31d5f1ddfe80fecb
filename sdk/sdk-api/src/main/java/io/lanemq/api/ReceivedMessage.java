package io.lanemq.api;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A message handed to a {@link MessageListener}. Immutable. Delivery is at least once: the same
 * {@link #messageId()} may arrive again after a retry, a rebalance or a failover, so listeners
 * must be idempotent.
 */
public interface ReceivedMessage {
    String messageId();

    String logicTopic();

    /** The body; a copy on each call. */
    byte[] body();

    List<String> keys();

    Optional<String> tag();

    /** User properties as the producer set them. */
    Map<String, String> properties();

    Optional<String> shardingKey();

    /** The cluster the message was consumed from. */
    String cluster();

    String physicalTopic();

    int queueId();

    long queueOffset();

    /** 1 on the first delivery, 2 on the first retry, and so on. */
    int deliveryAttempt();

    /** When the producer created the message, in epoch milliseconds. */
    long bornTimestamp();

    /**
     * The deliveries this message gets before it goes to the group's dead-letter topic, when the SDK knows it
     * (from the group's settings in DIRECT mode, from the consumer proxy in PROXY mode); empty otherwise. {@code deliveryAttempt() == maxDeliveryAttempts()}
     * is the last chance to handle it.
     */
    default OptionalInt maxDeliveryAttempts() {
        return OptionalInt.empty();
    }

    /** True on the last delivery before the dead-letter topic; false when that is not known. */
    default boolean lastDeliveryAttempt() {
        OptionalInt max = maxDeliveryAttempts();
        return max.isPresent() && deliveryAttempt() >= max.getAsInt();
    }

    /** The lane the message was sent in; empty for the base, and for a stamp that is not a lane path. */
    default Optional<Lane> lane() {
        String path = properties().get(MessageContext.LANE_PROPERTY);
        return path == null ? Optional.empty() : Lane.parse(path);
    }

    /** Whether the message is stress-test traffic. */
    default boolean stressTest() {
        return "true".equals(properties().get(MessageContext.STRESS_TEST_PROPERTY));
    }

    /** The context the message was sent in; the listener runs in it, so what it sends carries the same marks. */
    default MessageContext context() {
        MessageContext context = MessageContext.none().withStressTest(stressTest());
        return lane().map(context::withLane).orElse(context);
    }
}
