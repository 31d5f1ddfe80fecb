package io.lanemq.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.CancelOutcome;
import io.lanemq.api.LocalTransaction;
import io.lanemq.api.Message;
import io.lanemq.api.Producer;
import io.lanemq.api.SendFailedException;
import io.lanemq.api.SendResult;
import io.lanemq.api.TransactionResolution;
import io.lanemq.core.convert.MessageConversion;
import io.lanemq.core.convert.MessageConversionException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The template on a recording producer: what each call turns the payload into, and one outcome per message of a batch. */
class LaneMqTemplateTest {
    record OrderPaid(long orderId) {
    }

    private final RecordingProducer producer = new RecordingProducer();
    private final LaneMqTemplate template = new LaneMqTemplate(producer, MessageConversion.defaults());

    @Test
    void convertAndSendWritesThePayloadAndAppliesKeysAndShardingKey() throws Exception {
        template.convertAndSend("order-paid", new OrderPaid(42), message -> message.keys("order-42").shardingKey("customer-7"));

        Message sent = producer.sent.get(0);
        assertThat(sent.logicTopic()).isEqualTo("order-paid");
        assertThat(sent.keys()).containsExactly("order-42");
        assertThat(sent.shardingKey()).contains("customer-7");
        assertThat(template.fromMessage(TestMessage.of(sent), OrderPaid.class)).isEqualTo(new OrderPaid(42));
    }

    @Test
    void sendDelayedSetsTheDueTimeAndCancelGoesToTheProducer() throws Exception {
        Instant before = Instant.now();

        template.sendDelayed("payment-reminder", new OrderPaid(1), Duration.ofMinutes(30));
        CancelOutcome cancelled = template.cancelDelayed("delay-1");

        assertThat(producer.sent.get(0).deliverAt()).hasValueSatisfying(due ->
                assertThat(due).isBetween(before.plus(Duration.ofMinutes(30)), Instant.now().plus(Duration.ofMinutes(30))));
        assertThat(cancelled).isEqualTo(CancelOutcome.CANCELLED);
        assertThat(producer.cancelled).containsExactly("delay-1");
    }

    @Test
    void sendInTransactionConvertsThenRunsTheLocalTransactionThroughTheProducer() throws Exception {
        template.sendInTransaction("order-paid", new OrderPaid(3), prepared -> TransactionResolution.COMMIT);

        assertThat(producer.transactional).hasSize(1);
        assertThat(new String(producer.transactional.get(0).body())).isEqualTo("{\"orderId\":3}");
    }

    @Test
    void aBatchGivesOneOutcomePerMessageInOrderAndAFailureStopsNoOther() {
        producer.failTopic = "broken";
        List<Message> batch = List.of(template.toMessage("order-paid", new OrderPaid(1)).build(),
                template.toMessage("broken", new OrderPaid(2)).build(), template.toMessage("order-paid", new OrderPaid(3)).build());

        List<SendOutcome> outcomes = template.sendBatch(batch);

        assertThat(outcomes).extracting(SendOutcome::sent).containsExactly(true, false, true);
        assertThat(outcomes).extracting(SendOutcome::message).containsExactlyElementsOf(batch);
        assertThat(outcomes.get(1).failure()).get().isInstanceOf(SendFailedException.class);
        assertThat(outcomes.get(2).result()).get().extracting(SendResult::messageId)
                .as("the third message's own result, the second stored").isEqualTo("m-2");
    }

    @Test
    void aPayloadThatCannotBeWrittenFailsBeforeAnythingIsSent() {
        Object unwritable = new Object() {
            public Object getSelf() {
                return this;
            }
        };

        assertThatThrownBy(() -> template.convertAndSend("order-paid", unwritable)).isInstanceOf(MessageConversionException.class)
                .hasMessageContaining("logicTopic=order-paid");
        assertThat(template.convertAndSendAsync("order-paid", unwritable, m -> { })).isCompletedExceptionally();
        assertThat(producer.sent).isEmpty();
    }

    /** Stores what it is asked to send; fails every send to {@link #failTopic}. */
    static final class RecordingProducer implements Producer {
        final List<Message> sent = new CopyOnWriteArrayList<>();
        final List<Message> transactional = new CopyOnWriteArrayList<>();
        final List<String> cancelled = new CopyOnWriteArrayList<>();
        volatile String failTopic;

        @Override
        public SendResult send(Message message) throws SendFailedException {
            if (message.logicTopic().equals(failTopic)) {
                throw new SendFailedException("no cluster acknowledged", message.logicTopic(), "cluster-a", null);
            }
            sent.add(message);
            return new SendResult("m-" + sent.size(), message.logicTopic(), "cluster-a", message.logicTopic(), 0, sent.size());
        }

        @Override
        public CompletableFuture<SendResult> sendAsync(Message message) {
            try {
                return CompletableFuture.completedFuture(send(message));
            } catch (SendFailedException e) {
                return CompletableFuture.failedFuture(e);
            }
        }

        @Override
        public SendResult sendInTransaction(Message message, LocalTransaction localTransaction) {
            transactional.add(message);
            return new SendResult("tx-1", message.logicTopic(), "cluster-a", message.logicTopic(), 0, 0, Optional.empty());
        }

        @Override
        public CancelOutcome cancelDelayed(String delayId) {
            cancelled.add(delayId);
            return CancelOutcome.CANCELLED;
        }

        @Override
        public void close() {
        }
    }
}
