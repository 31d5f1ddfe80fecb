package io.lanemq.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Message;
import io.lanemq.api.MessageListener;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The error handler sees a failed message once, on its last delivery attempt, and decides whether it is dead-lettered. */
class RecoveringListenerTest {
    private static final TestMessage MESSAGE = TestMessage.of(Message.builder("order-paid").body(new byte[] {1}).build());
    private final List<String> handled = new ArrayList<>();
    private final MessageListener failing = message -> {
        throw new IllegalStateException("ledger down");
    };

    private RecoveringListener recovering(MessageListener listener, LaneMqErrorHandler.Resolution resolution) {
        return new RecoveringListener(listener, (message, failure) -> {
            handled.add(message.deliveryAttempt() + ": " + failure.getMessage());
            return resolution;
        }, "parking");
    }

    @Test
    void earlierAttemptsFailAsUsualWithoutTheHandler() {
        RecoveringListener listener = recovering(failing, LaneMqErrorHandler.Resolution.ACKNOWLEDGE);

        assertThatThrownBy(() -> listener.consume(MESSAGE.attempt(1))).hasMessage("ledger down");
        assertThatThrownBy(() -> listener.consume(MESSAGE.attempt(2))).hasMessage("ledger down");

        assertThat(handled).isEmpty();
    }

    @Test
    void aHandlerThatSettlesTheMessageOnTheLastAttemptAcknowledgesIt() {
        ConsumeResult result = recovering(failing, LaneMqErrorHandler.Resolution.ACKNOWLEDGE).consume(MESSAGE.attempt(3));

        assertThat(result).as("parked: not dead-lettered").isEqualTo(ConsumeResult.SUCCESS);
        assertThat(handled).containsExactly("3: ledger down");
    }

    @Test
    void aHandlerThatOnlyAlertsLetsTheMessageGoToTheDeadLetterTopic() {
        assertThatThrownBy(() -> recovering(failing, LaneMqErrorHandler.Resolution.DEAD_LETTER).consume(MESSAGE.attempt(3)))
                .as("the failure reaches the SDK, which lets the binding dead-letter it").hasMessage("ledger down");
        assertThat(handled).containsExactly("3: ledger down");
    }

    @Test
    void aRetryLaterAnswerOnTheLastAttemptIsAFailureToo() {
        ConsumeResult result = recovering(message -> ConsumeResult.RETRY_LATER, LaneMqErrorHandler.Resolution.DEAD_LETTER)
                .consume(MESSAGE.attempt(3));

        assertThat(result).isEqualTo(ConsumeResult.RETRY_LATER);
        assertThat(handled).singleElement().asString().contains("answered RETRY_LATER on the last delivery attempt (3)");
    }

    @Test
    void aHandlerThatThrowsLeavesTheMessageToTheDeadLetterTopic() {
        RecoveringListener listener = new RecoveringListener(failing, (message, failure) -> {
            throw new IllegalStateException("parking lot full");
        }, "parking");

        assertThat(listener.consume(MESSAGE.attempt(3))).isEqualTo(ConsumeResult.RETRY_LATER);
    }
}
