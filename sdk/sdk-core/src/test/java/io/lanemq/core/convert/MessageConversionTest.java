package io.lanemq.core.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Message;
import io.lanemq.api.ReceivedMessage;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Payload objects to message bodies and back: the content type each message carries picks the converter that reads it. */
class MessageConversionTest {
    record OrderPaid(long orderId, Instant paidAt, Optional<String> coupon) {
    }

    private final MessageConversion conversion = MessageConversion.defaults();

    @Test
    void anObjectTravelsAsJsonAndComesBackEqualWithItsContentTypeStamped() {
        OrderPaid paid = new OrderPaid(42, Instant.parse("2026-11-25T01:00:00.123Z"), Optional.of("XMAS"));

        Message message = conversion.toMessage("order-paid", paid).keys("order-42").build();

        assertThat(message.properties()).containsEntry(MessageConversion.CONTENT_TYPE_PROPERTY, "application/json");
        assertThat(new String(message.body(), StandardCharsets.UTF_8)).as("java.time as ISO text, Optional unwrapped")
                .contains("\"paidAt\":\"2026-11-25T01:00:00.123Z\"").contains("\"coupon\":\"XMAS\"");
        assertThat(conversion.fromMessage(received(message), OrderPaid.class)).isEqualTo(paid);
    }

    @Test
    void bytesAndTextStayAsTheyAreAndAnyMessageCanBeReadAsBytesOrText() {
        Message bytes = conversion.toMessage("raw", new byte[] {1, 2, 3}).build();
        Message text = conversion.toMessage("raw", "héllo").build();

        assertThat(bytes.body()).containsExactly(1, 2, 3);
        assertThat(bytes.properties()).containsEntry(MessageConversion.CONTENT_TYPE_PROPERTY, MessageConversion.BYTES);
        assertThat(text.body()).isEqualTo("héllo".getBytes(StandardCharsets.UTF_8));
        assertThat(conversion.fromMessage(received(text), String.class)).isEqualTo("héllo");
        Message json = conversion.toMessage("order-paid", new OrderPaid(1, Instant.EPOCH, Optional.empty())).build();
        assertThat(conversion.fromMessage(received(json), String.class)).as("a listener may log the JSON text").startsWith("{");
        assertThat(conversion.fromMessage(received(json), byte[].class)).isEqualTo(json.body());
    }

    @Test
    void aMessageWithoutContentTypeFromABytesProducerIsReadWithTheDefaultConverter() {
        Message legacy = Message.builder("order-paid").body("{\"orderId\":7,\"paidAt\":\"1970-01-01T00:00:00Z\",\"extra\":1}"
                .getBytes(StandardCharsets.UTF_8)).build();

        assertThat(conversion.fromMessage(received(legacy), OrderPaid.class).orderId())
                .as("read as JSON, an unknown field ignored").isEqualTo(7);
    }

    @Test
    void aGenericTargetTypeIsHonoured() throws Exception {
        Message message = conversion.toMessage("batch", List.of(new OrderPaid(1, Instant.EPOCH, Optional.empty()))).build();
        Type listOfOrders = Holder.class.getDeclaredField("orders").getGenericType();

        Object payload = conversion.fromMessage(received(message), listOfOrders);

        assertThat(payload).asList().singleElement().isInstanceOf(OrderPaid.class);
    }

    @Test
    void aBodyThatIsNotTheAskedTypeFailsNamingTheMessageTopicAndType() {
        Message notAnOrder = conversion.toMessage("order-paid", "plain words").build();
        ReceivedMessage received = received(Message.builder("order-paid").body(notAnOrder.body())
                .property(MessageConversion.CONTENT_TYPE_PROPERTY, "application/json; charset=UTF-8").build());

        assertThatThrownBy(() -> conversion.fromMessage(received, OrderPaid.class))
                .isInstanceOf(MessageConversionException.class)
                .hasMessageContaining("message id-1").hasMessageContaining("logicTopic=order-paid")
                .hasMessageContaining(OrderPaid.class.getTypeName());
    }

    @Test
    void anUnknownContentTypeFailsNamingIt() {
        ReceivedMessage avro = received(Message.builder("t").body(new byte[] {1})
                .property(MessageConversion.CONTENT_TYPE_PROPERTY, "avro/binary").build());

        assertThatThrownBy(() -> conversion.fromMessage(avro, OrderPaid.class))
                .isInstanceOf(MessageConversionException.class).hasMessageContaining("'avro/binary'");
    }

    @Test
    void aRegisteredConverterWritesThePayloadsItTakesAndReadsItsContentType() {
        MessageConverter reversed = new MessageConverter() {
            public String contentType() {
                return "application/x-reversed";
            }

            public boolean canWrite(Object payload) {
                return payload instanceof StringBuilder;
            }

            public byte[] write(Object payload) {
                return new StringBuilder(payload.toString()).reverse().toString().getBytes(StandardCharsets.UTF_8);
            }

            public Object read(byte[] body, Type type) {
                return new StringBuilder(new String(body, StandardCharsets.UTF_8)).reverse();
            }
        };
        MessageConversion custom = MessageConversion.builder().converter(reversed).build();

        Message message = custom.toMessage("t", new StringBuilder("abc")).build();
        Message json = custom.toMessage("t", Map.of("k", 1)).build();

        assertThat(message.body()).isEqualTo("cba".getBytes(StandardCharsets.UTF_8));
        assertThat(custom.fromMessage(received(message), StringBuilder.class).toString()).isEqualTo("abc");
        assertThat(json.properties()).as("what it does not take goes to the default").containsEntry(
                MessageConversion.CONTENT_TYPE_PROPERTY, "application/json");
        assertThatThrownBy(() -> MessageConversion.builder().converter(reversed).converter(reversed))
                .hasMessageContaining("two converters for content type 'application/x-reversed'");
    }

    @Test
    void aTypedListenerGetsThePayloadAndTheMessage() {
        List<Long> charged = new ArrayList<>();
        Message message = conversion.toMessage("order-paid", new OrderPaid(9, Instant.EPOCH, Optional.empty())).build();

        ConsumeResult result = conversion.listener(OrderPaid.class, (paid, received) -> {
            charged.add(paid.orderId());
            return ConsumeResult.SUCCESS;
        }).consume(received(message));

        assertThat(result).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(charged).containsExactly(9L);
    }

    static class Holder {
        List<OrderPaid> orders;
    }

    /** The message as a listener would receive it. */
    static ReceivedMessage received(Message message) {
        Map<String, String> properties = new HashMap<>(message.properties());
        return new ReceivedMessage() {
            public String messageId() {
                return "id-1";
            }

            public String logicTopic() {
                return message.logicTopic();
            }

            public byte[] body() {
                return message.body();
            }

            public List<String> keys() {
                return message.keys();
            }

            public Optional<String> tag() {
                return message.tag();
            }

            public Map<String, String> properties() {
                return properties;
            }

            public Optional<String> shardingKey() {
                return message.shardingKey();
            }

            public String cluster() {
                return "cluster-a";
            }

            public String physicalTopic() {
                return message.logicTopic();
            }

            public int queueId() {
                return 0;
            }

            public long queueOffset() {
                return 0;
            }

            public int deliveryAttempt() {
                return 1;
            }

            public long bornTimestamp() {
                return 0;
            }
        };
    }
}
