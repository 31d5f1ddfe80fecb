package io.lanemq.core.internal.consume.listener;

import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.spi.BoundMessage;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/** A message from one cluster, seen by the application under its logic topic. */
public final class DeliveredMessage implements ReceivedMessage {
    private final String logicTopic;
    private final String cluster;
    private final BoundMessage bound;
    /** 0 when not known. */
    private final int maxDeliveryAttempts;

    public DeliveredMessage(String logicTopic, String cluster, BoundMessage bound) {
        this(logicTopic, cluster, bound, 0);
    }

    /** A message of a consumer that sends it to the dead-letter topic after {@code maxDeliveryAttempts} (0: not known). */
    public DeliveredMessage(String logicTopic, String cluster, BoundMessage bound, int maxDeliveryAttempts) {
        this.logicTopic = logicTopic;
        this.cluster = cluster;
        this.bound = bound;
        this.maxDeliveryAttempts = maxDeliveryAttempts;
    }

    @Override
    public String messageId() {
        return bound.messageId();
    }

    @Override
    public String logicTopic() {
        return logicTopic;
    }

    @Override
    public byte[] body() {
        return bound.body().clone();
    }

    @Override
    public List<String> keys() {
        return bound.keys();
    }

    @Override
    public Optional<String> tag() {
        return bound.tag();
    }

    @Override
    public Map<String, String> properties() {
        return bound.properties();
    }

    @Override
    public Optional<String> shardingKey() {
        return bound.shardingKey();
    }

    @Override
    public String cluster() {
        return cluster;
    }

    @Override
    public String physicalTopic() {
        return bound.topic();
    }

    @Override
    public int queueId() {
        return bound.queueId();
    }

    @Override
    public long queueOffset() {
        return bound.queueOffset();
    }

    @Override
    public int deliveryAttempt() {
        return bound.deliveryAttempt();
    }

    @Override
    public long bornTimestamp() {
        return bound.bornTimestamp();
    }

    @Override
    public OptionalInt maxDeliveryAttempts() {
        return maxDeliveryAttempts == 0 ? OptionalInt.empty() : OptionalInt.of(maxDeliveryAttempts);
    }

    @Override
    public String toString() {
        return "ReceivedMessage[id=" + messageId() + ", logicTopic=" + logicTopic + ", cluster=" + cluster
                + ", queue=" + bound.queueId() + "@" + bound.queueOffset() + ", attempt=" + deliveryAttempt() + "]";
    }
}
