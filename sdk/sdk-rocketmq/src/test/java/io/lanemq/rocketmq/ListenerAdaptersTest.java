package io.lanemq.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.spi.BoundListener;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.api.RetryBackoff;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyContext;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyContext;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;

class ListenerAdaptersTest {
    private static final MessageQueue QUEUE = new MessageQueue("orders_a", "broker-a", 0);

    private static MessageExt message() {
        MessageExt message = new MessageExt();
        message.setTopic("orders_a");
        message.setBody(new byte[] {1});
        message.setReconsumeTimes(1);
        return message;
    }

    private static ConsumeConcurrentlyStatus concurrently(BoundListener listener) {
        return concurrently(listener, new ConsumeConcurrentlyContext(QUEUE));
    }

    private static ConsumeConcurrentlyStatus concurrently(BoundListener listener, ConsumeConcurrentlyContext context) {
        return new ConcurrentListenerAdapter(new ListenerInvoker(listener, "idc-a", "billing", "orders_a"), Optional.empty())
                .consumeMessage(List.of(message()), context);
    }

    private static ConsumeOrderlyStatus orderly(BoundListener listener) {
        return orderly(listener, (message, level) -> {
            throw new AssertionError("nothing is sent back for " + message);
        });
    }

    private static ConsumeOrderlyStatus orderly(BoundListener listener, OrderlyListenerAdapter.SendBack sendBack) {
        return new OrderlyListenerAdapter(new ListenerInvoker(listener, "idc-a", "billing", "orders_a"), sendBack, Optional.empty())
                .consumeMessage(List.of(message()), new ConsumeOrderlyContext(QUEUE));
    }

    @Test
    void concurrentResultsMapToRocketMqStatuses() {
        assertThat(concurrently(m -> ConsumeResult.SUCCESS)).isEqualTo(ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        assertThat(concurrently(m -> ConsumeResult.RETRY_LATER)).isEqualTo(ConsumeConcurrentlyStatus.RECONSUME_LATER);
        assertThat(concurrently(m -> null)).isEqualTo(ConsumeConcurrentlyStatus.RECONSUME_LATER);
        assertThat(concurrently(m -> {
            throw new IllegalStateException("boom");
        })).isEqualTo(ConsumeConcurrentlyStatus.RECONSUME_LATER);
    }

    @Test
    void orderlyResultsSuspendTheQueueInsteadOfRetryingLater() {
        assertThat(orderly(m -> ConsumeResult.SUCCESS)).isEqualTo(ConsumeOrderlyStatus.SUCCESS);
        assertThat(orderly(m -> ConsumeResult.RETRY_LATER)).isEqualTo(ConsumeOrderlyStatus.SUSPEND_CURRENT_QUEUE_A_MOMENT);
        assertThat(orderly(m -> {
            throw new IllegalStateException("boom");
        })).isEqualTo(ConsumeOrderlyStatus.SUSPEND_CURRENT_QUEUE_A_MOMENT);
    }

    @Test
    void aDeadLetterIsSentBackWithTheLevelTheBrokerStoresInTheDeadLetterTopic() {
        ConsumeConcurrentlyContext context = new ConsumeConcurrentlyContext(QUEUE);
        assertThat(concurrently(m -> ConsumeResult.DEAD_LETTER, context)).isEqualTo(ConsumeConcurrentlyStatus.RECONSUME_LATER);
        assertThat(context.getDelayLevelWhenNextConsume()).as("-1: %DLQ% at once, whatever the attempts left").isEqualTo(-1);

        ConsumeConcurrentlyContext retried = new ConsumeConcurrentlyContext(QUEUE);
        concurrently(m -> ConsumeResult.RETRY_LATER, retried);
        assertThat(retried.getDelayLevelWhenNextConsume()).as("0: the broker's ladder").isZero();
    }

    @Test
    void anOrderedDeadLetterIsSentBackAndTheQueueMovesOnUnlessTheSendFails() {
        List<Integer> levels = new ArrayList<>();
        assertThat(orderly(m -> ConsumeResult.DEAD_LETTER, (message, level) -> levels.add(level)))
                .isEqualTo(ConsumeOrderlyStatus.SUCCESS);
        assertThat(levels).containsExactly(-1);
        assertThat(orderly(m -> ConsumeResult.DEAD_LETTER, (message, level) -> {
            throw new IllegalStateException("broker gone");
        })).as("not stored in %DLQ%: it comes again").isEqualTo(ConsumeOrderlyStatus.SUSPEND_CURRENT_QUEUE_A_MOMENT);
    }

    @Test
    void aBackOffPicksTheNearestDelayLevelUnorderedAndPausesTheQueueForExactlyItsDelayOrdered() {
        RetryBackoff backoff = RetryBackoff.exponential(Duration.ofSeconds(4), 2.0, Duration.ofMinutes(1));
        ConsumeConcurrentlyContext context = new ConsumeConcurrentlyContext(QUEUE);
        new ConcurrentListenerAdapter(new ListenerInvoker(m -> ConsumeResult.RETRY_LATER, "idc-a", "billing", "orders_a"),
                Optional.of(backoff)).consumeMessage(List.of(message()), context);
        assertThat(context.getDelayLevelWhenNextConsume()).as("attempt 2 failed: 8 s, nearest level 10 s").isEqualTo(3);

        ConsumeOrderlyContext ordered = new ConsumeOrderlyContext(QUEUE);
        new OrderlyListenerAdapter(new ListenerInvoker(m -> ConsumeResult.RETRY_LATER, "idc-a", "billing", "orders_a"),
                (message, level) -> { }, Optional.of(backoff)).consumeMessage(List.of(message()), ordered);
        assertThat(ordered.getSuspendCurrentQueueTimeMillis()).isEqualTo(8_000);
    }

    @Test
    void delayLevelsAreRocketMqsDefaultLadder() {
        assertThat(DelayLevels.nearest(Duration.ofMillis(100))).isEqualTo(1);
        assertThat(DelayLevels.nearest(Duration.ofSeconds(20))).as("a tie takes the shorter").isEqualTo(3);
        assertThat(DelayLevels.nearest(Duration.ofSeconds(50))).isEqualTo(5);
        assertThat(DelayLevels.nearest(Duration.ofDays(1))).isEqualTo(18);
        assertThat(DelayLevels.of(18)).isEqualTo(Duration.ofHours(2));
    }

    @Test
    void theListenerSeesTheDeliveryAttempt() {
        AtomicReference<BoundMessage> seen = new AtomicReference<>();
        concurrently(m -> {
            seen.set(m);
            return ConsumeResult.SUCCESS;
        });
        assertThat(seen.get().deliveryAttempt()).isEqualTo(2);
    }
}
