package io.lanemq.delay.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.Message;
import io.lanemq.api.MessageContext;
import io.lanemq.api.spi.PhysicalMessage;
import io.lanemq.core.delay.DelayProtocol;
import io.lanemq.delay.DelayId;
import io.lanemq.delay.DelayedRecord;
import io.lanemq.rocketmq.FetchedMessage;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;

class InternalMessagesTest {

    private final DelayId id = DelayId.random(1_900_000_000_000L);

    /** What the SDK puts on the internal topic, plus what RocketMQ adds on the way. */
    private MessageExt schedule() {
        MessageExt m = new MessageExt();
        m.setTopic("LANEMQ_DELAY");
        m.setBody("hello".getBytes(StandardCharsets.UTF_8));
        m.setKeys(List.of("order-1", "order-2"));
        m.putUserProperty(MessageContext.LANE_PROPERTY, "A");
        m.putUserProperty(DelayProtocol.PROPERTY_KIND, DelayProtocol.KIND_SCHEDULE);
        m.putUserProperty(DelayProtocol.PROPERTY_ID, id.toString());
        m.putUserProperty(DelayProtocol.PROPERTY_LOGIC_TOPIC, "order-paid");
        m.putUserProperty(DelayProtocol.PROPERTY_TAG, "paid");
        m.putUserProperty(DelayProtocol.PROPERTY_SHARDING_KEY, "customer-7");
        MessageAccessor.putProperty(m, MessageConst.PROPERTY_SHARDING_KEY, id.toString());
        MessageAccessor.putProperty(m, MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, "7F000001ABCD");
        return m;
    }

    @Test
    void aScheduleBecomesTheOriginalMessageAgain() {
        DelayedRecord record = InternalMessages.toRecord(FetchedMessage.of(schedule()), "cluster-a");
        assertThat(record.id()).isEqualTo(id);
        assertThat(record.topic()).isEqualTo("order-paid");
        assertThat(record.cluster()).isEqualTo("cluster-a");
        assertThat(record.keys()).containsExactly("order-1", "order-2");
        assertThat(record.properties()).containsOnlyKeys(MessageContext.LANE_PROPERTY, DelayProtocol.PROPERTY_TAG,
                DelayProtocol.PROPERTY_SHARDING_KEY);

        Message delivered = InternalMessages.toDelivery(record);
        assertThat(delivered.logicTopic()).isEqualTo("order-paid");
        assertThat(delivered.body()).isEqualTo("hello".getBytes(StandardCharsets.UTF_8));
        assertThat(delivered.keys()).containsExactly("order-1", "order-2");
        assertThat(delivered.tag()).contains("paid");
        assertThat(delivered.shardingKey()).contains("customer-7");
        assertThat(delivered.properties()).containsExactly(java.util.Map.entry(MessageContext.LANE_PROPERTY, "A"));
        assertThat(delivered.deliverAt()).isEmpty();
    }

    @Test
    void aReenqueuedCopyIsTheSameScheduleForTheSameQueue() {
        DelayedRecord record = InternalMessages.toRecord(FetchedMessage.of(schedule()), "cluster-a");
        PhysicalMessage copy = InternalMessages.toReenqueue(record, "LANEMQ_DELAY");

        MessageExt read = new MessageExt();
        read.setTopic(copy.topic());
        read.setBody(copy.body());
        read.setKeys(copy.keys());
        copy.properties().forEach((k, v) -> MessageAccessor.putProperty(read, k, v));
        MessageAccessor.putProperty(read, MessageConst.PROPERTY_SHARDING_KEY, copy.shardingKey().orElseThrow());
        assertThat(copy.shardingKey()).as("the id keeps the copy in its queue's order").contains(id.toString());
        assertThat(copy.properties()).containsEntry(DelayProtocol.PROPERTY_KIND, DelayProtocol.KIND_SCHEDULE);
        assertThat(InternalMessages.toRecord(FetchedMessage.of(read), "cluster-a")).isEqualTo(record);
    }

    @Test
    void aScheduleWithoutIdOrTopicIsRefusedByName() {
        MessageExt noId = schedule();
        MessageAccessor.clearProperty(noId, DelayProtocol.PROPERTY_ID);
        assertThatThrownBy(() -> InternalMessages.toRecord(FetchedMessage.of(noId), "cluster-a"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(DelayProtocol.PROPERTY_ID);
        MessageExt badId = schedule();
        badId.putUserProperty(DelayProtocol.PROPERTY_ID, "not-an-id");
        assertThatThrownBy(() -> InternalMessages.toRecord(FetchedMessage.of(badId), "cluster-a")).isInstanceOf(IllegalArgumentException.class);
    }
}
