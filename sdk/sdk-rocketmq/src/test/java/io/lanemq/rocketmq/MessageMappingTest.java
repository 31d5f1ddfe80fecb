package io.lanemq.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.InvalidMessageException;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.api.spi.BoundSendResult;
import io.lanemq.api.spi.PhysicalMessage;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageClientIDSetter;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MessageMappingTest {
    private static final byte[] BODY = "{\"orderId\":42}".getBytes(StandardCharsets.UTF_8);

    private static PhysicalMessage message(Map<String, String> properties) {
        return new PhysicalMessage("orders_a", BODY, List.of("order-42", "customer-7"), Optional.of("paid"),
                properties, Optional.of("customer-7"));
    }

    @Test
    void mapsEveryFieldToRocketMq() throws Exception {
        Message target = MessageMapping.toRocketMq(message(Map.of("source", "checkout", "trace", "a b c")));

        assertThat(target.getTopic()).isEqualTo("orders_a");
        assertThat(target.getBody()).isEqualTo(BODY);
        assertThat(target.getKeys()).isEqualTo("order-42 customer-7");
        assertThat(target.getTags()).isEqualTo("paid");
        assertThat(target.getUserProperty("source")).isEqualTo("checkout");
        assertThat(target.getProperty(MessageConst.PROPERTY_SHARDING_KEY)).isEqualTo("customer-7");
    }

    @Test
    void rejectsAReservedPropertyNamingIt() {
        assertThatThrownBy(() -> MessageMapping.toRocketMq(message(Map.of("source", "x", "KEYS", "spoofed"))))
                .isInstanceOf(InvalidMessageException.class)
                .hasMessageContaining("'KEYS'")
                .hasMessageContaining("reserved by RocketMQ")
                .hasMessageContaining("orders_a");
    }

    static List<String> reservedNames() {
        List<String> names = new java.util.ArrayList<>(MessageConst.STRING_HASH_SET);
        // Written by RocketMQ itself but missing from STRING_HASH_SET in 5.3.3.
        names.addAll(List.of(MessageConst.PROPERTY_SHARDING_KEY, MessageConst.PROPERTY_TRANSACTION_ID,
                MessageConst.PROPERTY_TRANSIENT_TOPIC_CONFIG));
        return names;
    }

    @ParameterizedTest
    @MethodSource("reservedNames")
    void rejectsEveryNameRocketMqReserves(String name) {
        assertThatThrownBy(() -> MessageMapping.toRocketMq(message(Map.of(name, "x"))))
                .isInstanceOf(InvalidMessageException.class)
                .hasMessageContaining("'" + name + "'");
    }

    @Test
    void rejectsWhatRocketMqWouldDropOrCorrupt() {
        assertThatThrownBy(() -> MessageMapping.toRocketMq(message(Map.of("empty", ""))))
                .isInstanceOf(InvalidMessageException.class).hasMessageContaining("'empty' must not have an empty value");
        assertThatThrownBy(() -> MessageMapping.toRocketMq(message(Map.of("bad", "a\u0001b"))))
                .isInstanceOf(InvalidMessageException.class).hasMessageContaining("'bad'");
        PhysicalMessage spacedKey = new PhysicalMessage("orders_a", BODY, List.of("two words"), Optional.empty(),
                Map.of(), Optional.empty());
        assertThatThrownBy(() -> MessageMapping.toRocketMq(spacedKey))
                .isInstanceOf(InvalidMessageException.class).hasMessageContaining("'two words'");
    }

    @Test
    void aGivenMessageIdIsTheOneRocketMqKeeps() throws Exception {
        String id = new RocketMqBinding().newMessageId().orElseThrow();
        Message target = MessageMapping.toRocketMq(new PhysicalMessage("orders_a", BODY, List.of(), Optional.empty(),
                Map.of(), Optional.empty(), Optional.of(id)));

        MessageClientIDSetter.setUniqID(target); // what the producer does before sending: only where none is set
        assertThat(MessageClientIDSetter.getUniqID(target)).isEqualTo(id);
        assertThat(new RocketMqBinding().newMessageId()).as("a new one each time").isNotEqualTo(Optional.of(id));
    }

    @Test
    void leavesOptionalFieldsUnset() throws Exception {
        Message target = MessageMapping.toRocketMq(new PhysicalMessage("orders_a", BODY, List.of(), Optional.empty(),
                Map.of(), Optional.empty()));
        assertThat(target.getKeys()).isNull();
        assertThat(target.getTags()).isNull();
        assertThat(target.getProperty(MessageConst.PROPERTY_SHARDING_KEY)).isNull();
    }

    /** What a consumer receives: the producer's message, stored by a broker, decoded as the client decodes it. */
    private static MessageExt storedAndDecoded(Message sent, int reconsumeTimes, String topicOverride) throws Exception {
        MessageExt stored = new MessageExt();
        stored.setTopic(topicOverride != null ? topicOverride : sent.getTopic());
        stored.setBody(sent.getBody());
        MessageAccessor.setProperties(stored, new java.util.HashMap<>(sent.getProperties()));
        MessageAccessor.putProperty(stored, MessageConst.PROPERTY_MIN_OFFSET, "0");
        MessageAccessor.putProperty(stored, MessageConst.PROPERTY_MAX_OFFSET, "9");
        MessageAccessor.putProperty(stored, MessageConst.PROPERTY_TRANSACTION_CHECK_TIMES, "1");
        stored.setQueueId(3);
        stored.setQueueOffset(17);
        stored.setReconsumeTimes(reconsumeTimes);
        stored.setBornTimestamp(1_700_000_000_000L);
        stored.setStoreTimestamp(1_700_000_000_005L);
        stored.setBornHost(new InetSocketAddress("127.0.0.1", 40000));
        stored.setStoreHost(new InetSocketAddress("127.0.0.1", 10911));
        MessageExt received = MessageDecoder.clientDecode(ByteBuffer.wrap(MessageDecoder.encode(stored, false)), true);
        received.setBrokerName("broker-a");
        return received;
    }

    @Test
    void roundTripsThroughRocketMqsWireFormat() throws Exception {
        Message sent = MessageMapping.toRocketMq(message(Map.of("source", "checkout", "trace", "a b c")));
        MessageClientIDSetter.setUniqID(sent);
        String messageId = MessageClientIDSetter.getUniqID(sent);

        BoundMessage received = MessageMapping.toBoundMessage(storedAndDecoded(sent, 0, null));

        assertThat(received.messageId()).isEqualTo(messageId);
        assertThat(received.topic()).isEqualTo("orders_a");
        assertThat(received.body()).isEqualTo(BODY);
        assertThat(received.keys()).containsExactly("order-42", "customer-7");
        assertThat(received.tag()).hasValue("paid");
        assertThat(received.properties()).containsExactlyInAnyOrderEntriesOf(Map.of("source", "checkout", "trace", "a b c"));
        assertThat(received.shardingKey()).hasValue("customer-7");
        assertThat(received.brokerName()).isEqualTo("broker-a");
        assertThat(received.queueId()).isEqualTo(3);
        assertThat(received.queueOffset()).isEqualTo(17);
        assertThat(received.deliveryAttempt()).isEqualTo(1);
        assertThat(received.bornTimestamp()).isEqualTo(1_700_000_000_000L);
    }

    @Test
    void aRetryDeliveryKeepsTheOriginalTopicAndCountsAttempts() throws Exception {
        Message sent = MessageMapping.toRocketMq(message(Map.of("source", "checkout")));
        MessageClientIDSetter.setUniqID(sent);
        MessageAccessor.putProperty(sent, MessageConst.PROPERTY_RETRY_TOPIC, "orders_a");

        BoundMessage received = MessageMapping.toBoundMessage(storedAndDecoded(sent, 2, "%RETRY%billing"));

        assertThat(received.topic()).isEqualTo("orders_a");
        assertThat(received.deliveryAttempt()).isEqualTo(3);
        assertThat(received.messageId()).isEqualTo(MessageClientIDSetter.getUniqID(sent));
        assertThat(received.properties()).containsOnlyKeys("source");
    }

    @Test
    void sendResultCarriesTheClientSideIdAndWhereItWasStored() {
        SendResult result = new SendResult(SendStatus.SEND_OK, "7F0000010001", "OFFSETID",
                new MessageQueue("orders_a", "broker-b", 5), 123L);
        assertThat(MessageMapping.toBoundSendResult(result, "orders_a"))
                .isEqualTo(new BoundSendResult("7F0000010001", "orders_a", "broker-b", 5, 123L));
        SendResult notFlushed = new SendResult(SendStatus.FLUSH_DISK_TIMEOUT, "7F0000010002", "OFFSETID",
                new MessageQueue("orders_a", "broker-b", 5), 124L);
        assertThat(MessageMapping.toBoundSendResult(notFlushed, "orders_a").storedAsConfigured())
                .as("stored, not yet flushed: the caller is told").isFalse();
    }

    @Test
    void preparedResultKnowsOnlyTheMessageId() throws Exception {
        Message prepared = MessageMapping.toRocketMq(message(Map.of()));
        MessageClientIDSetter.setUniqID(prepared);
        assertThat(MessageMapping.preparedResult(prepared))
                .isEqualTo(new BoundSendResult(MessageClientIDSetter.getUniqID(prepared), "orders_a", null, -1, -1L));
    }
}
