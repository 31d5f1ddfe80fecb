package io.lanemq.core.internal.lane.forward;

import com.google.protobuf.ByteString;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.protocol.lane.ForwardRequest;
import io.lanemq.protocol.lane.LaneMessage;
import java.util.Optional;

/** Converts between a received message and its wire form; nothing is dropped either way. */
final class LaneMessages {
    private LaneMessages() {
    }

    static ForwardRequest request(String consumerGroup, ReceivedMessage message) {
        LaneMessage.Builder wire = LaneMessage.newBuilder()
                .setMessageId(message.messageId())
                .setBody(ByteString.copyFrom(message.body()))
                .addAllKeys(message.keys())
                .putAllProperties(message.properties())
                .setCluster(message.cluster())
                .setPhysicalTopic(message.physicalTopic())
                .setQueueId(message.queueId())
                .setQueueOffset(message.queueOffset())
                .setDeliveryAttempt(message.deliveryAttempt())
                .setBornTimestampMs(message.bornTimestamp());
        message.tag().ifPresent(wire::setTag);
        message.shardingKey().ifPresent(wire::setShardingKey);
        return ForwardRequest.newBuilder()
                .setConsumerGroup(consumerGroup)
                .setLogicTopic(message.logicTopic())
                .setMessage(wire)
                .build();
    }

    static ForwardedMessage received(ForwardRequest request) {
        LaneMessage wire = request.getMessage();
        return new ForwardedMessage(wire.getMessageId(), request.getLogicTopic(), wire.getBody().toByteArray(),
                wire.getKeysList(), wire.hasTag() ? Optional.of(wire.getTag()) : Optional.empty(), wire.getPropertiesMap(),
                wire.hasShardingKey() ? Optional.of(wire.getShardingKey()) : Optional.empty(), wire.getCluster(),
                wire.getPhysicalTopic(), wire.getQueueId(), wire.getQueueOffset(), wire.getDeliveryAttempt(),
                wire.getBornTimestampMs());
    }
}
