package io.lanemq.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Lane;
import io.lanemq.api.Message;
import io.lanemq.api.MessageContext;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.core.convert.MessageConversion;
import io.lanemq.core.convert.MessageConversionException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.messaging.handler.annotation.Headers;
import org.springframework.messaging.handler.annotation.Payload;

/** A {@code @LaneMqListener} method's parameters filled from the message, and the methods the starter refuses at startup. */
class HandlerMethodListenerTest {
    record OrderPaid(long orderId, String currency) {
    }

    private final MessageConversion conversion = MessageConversion.defaults();
    private final Handlers handlers = new Handlers();

    @Test
    void aTypedHandlerGetsThePayloadAndTheHeadersItAsksFor() throws Exception {
        Message sent = conversion.toMessage("order-paid", new OrderPaid(42, "EUR")).keys("order-42", "customer-7")
                .tag("paid").shardingKey("customer-7").property("source", "checkout").property("retries", "5")
                .property(MessageContext.LANE_PROPERTY, "A.X").build();

        ConsumeResult result = listener("typed").consume(TestMessage.of(sent).attempt(2));

        assertThat(result).as("void and no exception: done").isEqualTo(ConsumeResult.SUCCESS);
        assertThat(handlers.calls).containsExactly(List.of(new OrderPaid(42, "EUR"), "id-1", List.of("order-42", "customer-7"),
                2, Optional.of(Lane.of("A.X")), "A.X", "checkout", 5, Optional.empty(), "fallback", "customer-7", "paid"));
    }

    @Test
    void headersMapMessageAndContextParametersAndAConsumeResultAnswer() {
        Message sent = Message.builder("order-paid").body(new byte[] {7}).property("source", "checkout").build();

        ConsumeResult result = listener("whole").consume(TestMessage.of(sent));

        assertThat(result).isEqualTo(ConsumeResult.RETRY_LATER);
        assertThat(handlers.calls.get(0)).containsExactly(Map.of("source", "checkout"), "id-1", MessageContext.none(), List.of((byte) 7));
    }

    @Test
    void theHandlersExceptionReachesTheSdkAsItIsSoTheMessageIsRetried() {
        Message sent = conversion.toMessage("order-paid", new OrderPaid(1, "EUR")).build();

        assertThatThrownBy(() -> listener("failing").consume(TestMessage.of(sent)))
                .isInstanceOf(IllegalStateException.class).hasMessage("ledger down");
    }

    @Test
    void aBodyThatIsNotThePayloadTypeFailsTheDeliveryNamingTheMessage() {
        Message sent = conversion.toMessage("order-paid", "not json").build();

        assertThatThrownBy(() -> listener("typed").consume(TestMessage.of(sent)))
                .isInstanceOf(MessageConversionException.class).hasMessageContaining("message id-1")
                .hasMessageContaining(OrderPaid.class.getTypeName());
    }

    @Test
    void aRequiredUserHeaderTheMessageLacksFailsTheDeliveryNamingIt() {
        Message sent = conversion.toMessage("order-paid", new OrderPaid(1, "EUR")).build();

        assertThatThrownBy(() -> listener("needsSource").consume(TestMessage.of(sent)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("has no header 'source'");
    }

    @Test
    void methodsTheStarterCannotCallAreRefusedNamingTheProblem() {
        assertThatThrownBy(() -> listener("twoPayloads")).hasMessageContaining("parameter 1 (java.lang.String) would be a second payload");
        assertThatThrownBy(() -> listener("returnsString")).hasMessageContaining("must return void or ConsumeResult, not java.lang.String");
        assertThatThrownBy(() -> listener("attemptAsList"))
                .hasMessageContaining("header 'lanemq_deliveryAttempt' is a Integer, which cannot become a java.util.Map");
        assertThatThrownBy(() -> listener("headersAsString")).hasMessageContaining("@Headers needs a Map<String, String>");
    }

    private HandlerMethodListener listener(String name) {
        Method method = Arrays.stream(Handlers.class.getDeclaredMethods()).filter(m -> m.getName().equals(name)).findFirst().orElseThrow();
        return HandlerMethodListener.of(handlers, method, method, conversion);
    }

    static class Handlers {
        final List<List<Object>> calls = new ArrayList<>();

        void typed(@Payload OrderPaid paid, @Header(LaneMqHeaders.MESSAGE_ID) String id, @Header(LaneMqHeaders.KEYS) List<String> keys,
                   @Header(LaneMqHeaders.DELIVERY_ATTEMPT) int attempt, @Header(LaneMqHeaders.LANE) Optional<Lane> lane,
                   @Header(LaneMqHeaders.LANE) String lanePath, @Header("source") String source, @Header("retries") int retries,
                   @Header("absent") Optional<String> absent, @Header(name = "absent", defaultValue = "fallback") String withDefault,
                   @Header(LaneMqHeaders.SHARDING_KEY) String shardingKey, @Header(LaneMqHeaders.TAG) String tag) {
            calls.add(List.of(paid, id, keys, attempt, lane, lanePath, source, retries, absent, withDefault, shardingKey, tag));
        }

        ConsumeResult whole(@Headers Map<String, String> headers, ReceivedMessage message, MessageContext context, byte[] body) {
            calls.add(List.of(headers, message.messageId(), context, List.of(body[0])));
            return ConsumeResult.RETRY_LATER;
        }

        void failing(OrderPaid paid) {
            throw new IllegalStateException("ledger down");
        }

        void needsSource(OrderPaid paid, @Header("source") String source) {
        }

        void twoPayloads(OrderPaid paid, String text) {
        }

        String returnsString(OrderPaid paid) {
            return "";
        }

        void attemptAsList(@Header(LaneMqHeaders.DELIVERY_ATTEMPT) Map<String, String> attempt) {
        }

        void headersAsString(@Headers String headers) {
        }
    }
}
