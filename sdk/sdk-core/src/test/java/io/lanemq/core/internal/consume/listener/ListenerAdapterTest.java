package io.lanemq.core.internal.consume.listener;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Lane;
import io.lanemq.api.MessageContext;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.Ticker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** What the application's listener is handed, in which context, and what its failures become. */
class ListenerAdapterTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final SdkMetrics metrics = new SdkMetrics(registry, "test");

    @Test
    void theListenerSeesTheLogicTopicAndClusterAndRunsInTheMessagesContext() {
        AtomicReference<MessageContext> during = new AtomicReference<>();
        AtomicReference<String> where = new AtomicReference<>();
        ListenerAdapter adapter = new ListenerAdapter("orders", "billing", "cluster-b", message -> {
            during.set(MessageContext.current());
            where.set(message.logicTopic() + "@" + message.cluster() + "/" + message.physicalTopic());
            return ConsumeResult.SUCCESS;
        }, metrics, Ticker.system());

        ConsumeResult result = adapter.onMessage(bound(Map.of(MessageContext.LANE_PROPERTY, "A.X")));

        assertThat(result).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(where.get()).isEqualTo("orders@cluster-b/orders_b");
        assertThat(during.get().lane()).as("what the listener sends carries the message's lane").contains(Lane.of("A.X"));
        assertThat(MessageContext.current()).as("after the listener").isEqualTo(MessageContext.none());
        assertThat(consumed(true)).isEqualTo(1.0);
    }

    @Test
    void aListenerThatThrowsOrAnswersNullHasNotProcessedTheMessageSoItIsRetried() {
        ListenerAdapter throwing = new ListenerAdapter("orders", "billing", "cluster-b", message -> {
            throw new IllegalStateException("bug");
        }, metrics, Ticker.system());
        ListenerAdapter silent = new ListenerAdapter("orders", "billing", "cluster-b", message -> null, metrics, Ticker.system());
        ListenerAdapter erroring = new ListenerAdapter("orders", "billing", "cluster-b", message -> {
            throw new StackOverflowError();
        }, metrics, Ticker.system());

        assertThat(throwing.onMessage(bound(Map.of()))).isEqualTo(ConsumeResult.RETRY_LATER);
        assertThat(silent.onMessage(bound(Map.of()))).isEqualTo(ConsumeResult.RETRY_LATER);
        assertThat(erroring.onMessage(bound(Map.of()))).isEqualTo(ConsumeResult.RETRY_LATER);
        assertThat(consumed(false)).isEqualTo(3.0);
        assertThat(MessageContext.current()).as("context restored after a failure").isEqualTo(MessageContext.none());
    }

    @Test
    void aRejectedMessageAndARetryAtTheLastAttemptAreCountedAsDeadLetters() {
        ListenerAdapter rejecting = new ListenerAdapter("orders", "billing", "cluster-b", message -> ConsumeResult.DEAD_LETTER,
                metrics, Ticker.system(), 16, null);
        ListenerAdapter failing = new ListenerAdapter("orders", "billing", "cluster-b", message -> ConsumeResult.RETRY_LATER,
                metrics, Ticker.system(), 3, SdkMetrics.RetryPath.DELAY_LEVEL);

        assertThat(rejecting.onMessage(bound(Map.of(), 1))).isEqualTo(ConsumeResult.DEAD_LETTER);
        assertThat(failing.onMessage(bound(Map.of(), 2))).isEqualTo(ConsumeResult.RETRY_LATER);
        assertThat(failing.onMessage(bound(Map.of(), 3))).isEqualTo(ConsumeResult.RETRY_LATER);

        assertThat(consumed("dead_letter")).as("the rejected one, and the last attempt of the failing one").isEqualTo(2.0);
        assertThat(consumed("retry")).as("the failing one's second attempt").isEqualTo(1.0);
        assertThat(registry.get(SdkMetrics.RETRY_BACKOFFS).tag(SdkMetrics.TAG_PATH, "delay_level").counter().count())
                .as("the retry kept by the back-off's delay level; the last attempt is no retry").isEqualTo(1.0);
    }

    private double consumed(boolean succeeded) {
        return consumed(succeeded ? "success" : "retry");
    }

    private double consumed(String outcome) {
        return registry.get(SdkMetrics.CONSUMED).tag(SdkMetrics.TAG_GROUP, "billing")
                .tag(SdkMetrics.TAG_OUTCOME, outcome).counter().count();
    }

    private static BoundMessage bound(Map<String, String> properties) {
        return bound(properties, 1);
    }

    private static BoundMessage bound(Map<String, String> properties, int attempt) {
        return new BoundMessage("id", "orders_b", new byte[] {1}, List.of(), Optional.empty(), properties, Optional.empty(),
                "broker-b", 0, 7, attempt, 0);
    }
}
