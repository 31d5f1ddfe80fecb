package io.lanemq.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Message;
import io.lanemq.api.MessageListener;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The error handler sees a failed message once, when its failure is final (its last delivery attempt, or a failure that is
 * not retried), and decides whether it is dead-lettered.
 */
class RecoveringListenerTest {
    private static final TestMessage MESSAGE = TestMessage.of(Message.builder("order-paid").body(new byte[] {1}).build());
    private final List<String> handled = new ArrayList<>();
    private final MessageListener failing = message -> {
        throw new IllegalStateException("ledger down");
    };

    private RecoveringListener recovering(MessageListener listener, LaneMqErrorHandler.Resolution resolution) {
        return recovering(listener, resolution, List.of());
    }

    private RecoveringListener recovering(MessageListener listener, LaneMqErrorHandler.Resolution resolution,
                                          List<Class<? extends Throwable>> notRetryable) {
        return new RecoveringListener(listener, new FailurePolicy(notRetryable, false, (message, failure) -> {
            handled.add(message.deliveryAttempt() + ": " + failure.getMessage());
            return resolution;
        }, "parking"));
    }

    private static RecoveringListener withoutHandler(MessageListener listener, List<Class<? extends Throwable>> notRetryable,
                                                     boolean retryConversionFailures) {
        return new RecoveringListener(listener, new FailurePolicy(notRetryable, retryConversionFailures, null, null));
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
        RecoveringListener listener = new RecoveringListener(failing, new FailurePolicy(List.of(), false, (message, failure) -> {
            throw new IllegalStateException("parking lot full");
        }, "parking"));

        assertThat(listener.consume(MESSAGE.attempt(3))).isEqualTo(ConsumeResult.RETRY_LATER);
    }

    @Test
    void aFailureDeclaredNotRetryableOrCausedByOneIsDeadLetteredAtItsFirstAttemptThroughTheHandler() {
        MessageListener rejecting = message -> {
            throw new IllegalStateException("wrapped", new IllegalArgumentException("order 7 does not exist"));
        };

        ConsumeResult result = recovering(rejecting, LaneMqErrorHandler.Resolution.DEAD_LETTER,
                List.of(IllegalArgumentException.class)).consume(MESSAGE.attempt(1));

        assertThat(result).isEqualTo(ConsumeResult.DEAD_LETTER);
        assertThat(handled).as("the handler sees it once, at once").containsExactly("1: wrapped");
    }

    @Test
    void aDeadLetterAnswerGoesThroughTheHandlerWhichMayStillSettleIt() {
        ConsumeResult result = recovering(message -> ConsumeResult.DEAD_LETTER, LaneMqErrorHandler.Resolution.ACKNOWLEDGE)
                .consume(MESSAGE.attempt(1));

        assertThat(result).as("parked by the handler").isEqualTo(ConsumeResult.SUCCESS);
        assertThat(handled).singleElement().asString().contains("answered DEAD_LETTER");
    }

    @Test
    void aConversionFailureIsNotRetriedUnlessTheApplicationSaysSo() {
        MessageListener unreadable = message -> {
            throw new io.lanemq.core.convert.MessageConversionException("not json", null);
        };

        assertThat(withoutHandler(unreadable, List.of(), false).consume(MESSAGE.attempt(1))).isEqualTo(ConsumeResult.DEAD_LETTER);
        assertThatThrownBy(() -> withoutHandler(unreadable, List.of(), true).consume(MESSAGE.attempt(1)))
                .as("retried: the SDK logs and retries it").hasMessage("not json");
        assertThatThrownBy(() -> withoutHandler(failing, List.of(IllegalArgumentException.class), false)
                .consume(MESSAGE.attempt(1))).as("another type is retried").hasMessage("ledger down");
    }
}
