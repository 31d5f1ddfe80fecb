package io.lanemq.core.internal.lane.forward;

import io.lanemq.api.ReceivedMessage;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A message another SDK instance consumed and forwarded to this one over {@code LaneForward}: every
 * field as that instance's broker delivered it (cluster, queue, offset, attempt), properties intact, so
 * the listener sees what it would have seen consuming the message itself. Immutable.
 */
public record ForwardedMessage(String messageId, String logicTopic, byte[] body, List<String> keys, Optional<String> tag,
                               Map<String, String> properties, Optional<String> shardingKey, String cluster,
                               String physicalTopic, int queueId, long queueOffset, int deliveryAttempt,
                               long bornTimestamp) implements ReceivedMessage {

    public ForwardedMessage {
        Objects.requireNonNull(messageId, "messageId");
        Objects.requireNonNull(logicTopic, "logicTopic");
        body = Objects.requireNonNull(body, "body").clone();
        keys = List.copyOf(keys);
        Objects.requireNonNull(tag, "tag");
        properties = Map.copyOf(properties);
        Objects.requireNonNull(shardingKey, "shardingKey");
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(physicalTopic, "physicalTopic");
    }

    /** The body; a copy on each call. */
    @Override
    public byte[] body() {
        return body.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ForwardedMessage that && messageId.equals(that.messageId) && logicTopic.equals(that.logicTopic)
                && Arrays.equals(body, that.body) && keys.equals(that.keys) && tag.equals(that.tag)
                && properties.equals(that.properties) && shardingKey.equals(that.shardingKey) && cluster.equals(that.cluster)
                && physicalTopic.equals(that.physicalTopic) && queueId == that.queueId && queueOffset == that.queueOffset
                && deliveryAttempt == that.deliveryAttempt && bornTimestamp == that.bornTimestamp;
    }

    @Override
    public int hashCode() {
        return Objects.hash(messageId, logicTopic, cluster, queueId, queueOffset);
    }

    /** Names the message, not its content: bodies and properties stay out of logs. */
    @Override
    public String toString() {
        return "ForwardedMessage[id=" + messageId + ", logicTopic=" + logicTopic + ", cluster=" + cluster
                + ", queue=" + queueId + "@" + queueOffset + ", attempt=" + deliveryAttempt + "]";
    }
}
