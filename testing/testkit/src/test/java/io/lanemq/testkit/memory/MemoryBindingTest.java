package io.lanemq.testkit.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.SendFailedException;
import io.lanemq.api.TransactionResolution;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.api.spi.BoundConsumerSpec.StartPosition;
import io.lanemq.api.spi.BoundListener;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.api.spi.BoundProducer;
import io.lanemq.api.spi.BoundProducerSpec;
import io.lanemq.api.spi.BoundSendResult;
import io.lanemq.api.spi.ClusterEndpoint;
import io.lanemq.api.spi.PhysicalMessage;
import io.lanemq.api.spi.TransactionCheckHandler;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The in-memory binding keeps the SPI's promises that the core's tests rely on. */
class MemoryBindingTest {
    private static final ClusterEndpoint CLUSTER = new ClusterEndpoint("cluster-a", "idc-a", "memory", Map.of());
    private static final Duration TIMEOUT = Duration.ofMillis(200);
    private static final Duration WAIT = Duration.ofSeconds(5);

    private final MemoryBinding binding = new MemoryBinding();
    private final MemoryCluster cluster = binding.cluster("cluster-a");

    @AfterEach
    void close() {
        binding.close();
    }

    @Test
    void equalShardingKeysShareAQueueAndOffsetsGrowPerQueue() throws Exception {
        BoundProducer producer = producer(Optional.empty());

        BoundSendResult first = producer.send(message("orders", "1", Optional.of("customer-7"), Optional.empty()));
        BoundSendResult second = producer.send(message("orders", "2", Optional.of("customer-7"), Optional.empty()));

        assertThat(second.queueId()).isEqualTo(first.queueId());
        assertThat(second.queueOffset()).isEqualTo(first.queueOffset() + 1);
        assertThat(cluster.stored("orders")).extracting(BoundMessage::messageId).containsExactly(first.messageId(), second.messageId());
    }

    @Test
    void faultsHoldUntilRecoverAndEveryAttemptIsRecorded() throws Exception {
        BoundProducer producer = producer(Optional.empty());

        cluster.failSends(1);
        assertThatThrownBy(() -> producer.send(message("orders", "1"))).isInstanceOf(SendFailedException.class)
                .hasMessageContaining("cluster=cluster-a");
        producer.send(message("orders", "2"));
        cluster.silence();
        CompletableFuture<BoundSendResult> unanswered = producer.sendAsync(message("orders", "3"));
        assertThatThrownBy(() -> producer.send(message("orders", "4"))).as("a blocking send times out")
                .isInstanceOf(SendFailedException.class).hasMessageContaining("within " + TIMEOUT.toMillis() + " ms");
        cluster.recover();
        producer.send(message("orders", "5"));

        assertThat(unanswered).isNotDone();
        assertThat(cluster.sends()).extracting(SendRecord::outcome).containsExactly(SendRecord.Outcome.FAILED,
                SendRecord.Outcome.STORED, SendRecord.Outcome.UNANSWERED, SendRecord.Outcome.UNANSWERED, SendRecord.Outcome.STORED);
        assertThat(bodies(cluster.stored("orders"))).containsExactlyInAnyOrder("2", "5");
    }

    @Test
    void aNewGroupStartsWhereItsStartPositionSaysAndSeesOnlyTheTagsItAsksFor() throws Exception {
        cluster.publish(message("orders", "old"));
        List<String> latest = new CopyOnWriteArrayList<>();
        List<String> earliest = new CopyOnWriteArrayList<>();
        consumer("latest", "*", false, StartPosition.LATEST, recording(latest));
        consumer("earliest", "paid || refunded", false, StartPosition.EARLIEST, recording(earliest));

        cluster.publish(message("orders", "paid", Optional.empty(), Optional.of("paid")));
        cluster.publish(message("orders", "created", Optional.empty(), Optional.of("created")));

        await().atMost(WAIT).until(() -> latest.size() == 2 && cluster.backlog("earliest", "orders") == 0);
        assertThat(latest).containsExactlyInAnyOrder("paid", "created");
        assertThat(earliest).as("from the start, tags paid or refunded").containsExactly("paid");
    }

    @Test
    void anOrderedConsumerGetsTheSameMessageAgainBeforeTheNextOneAndDeadLettersItAfterItsLastAttempt() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        consumer("billing", "*", true, StartPosition.EARLIEST, message -> {
            String body = new String(message.body(), StandardCharsets.UTF_8);
            seen.add(body + "#" + message.deliveryAttempt());
            return body.equals("first") ? ConsumeResult.RETRY_LATER : ConsumeResult.SUCCESS;
        });

        cluster.publish(message("orders", "first", Optional.of("k"), Optional.empty()));
        cluster.publish(message("orders", "second", Optional.of("k"), Optional.empty()));

        await().atMost(WAIT).until(() -> seen.contains("second#1"));
        assertThat(seen).containsExactly("first#1", "first#2", "first#3", "second#1");
        assertThat(bodies(cluster.deadLetters("billing"))).containsExactly("first");
    }

    @Test
    void membersOfAGroupShareTheQueuesAndTellTheirTags() throws Exception {
        List<String> one = new CopyOnWriteArrayList<>();
        List<String> two = new CopyOnWriteArrayList<>();
        var first = binding.createConsumer(spec("billing", "*", false, StartPosition.EARLIEST).withMemberTag("one"), recording(one));
        binding.createConsumer(spec("billing", "*", false, StartPosition.EARLIEST).withMemberTag("two"), recording(two));

        for (int i = 0; i < 8; i++) {
            cluster.publish(message("orders", "m" + i));
        }

        await().atMost(WAIT).until(() -> one.size() + two.size() == 8);
        assertThat(one).as("each member consumes its queues").hasSize(4);
        assertThat(first.memberTags()).hasValueSatisfying(tags -> assertThat(tags).containsExactly("one", "two"));
        cluster.silence();
        assertThat(first.memberTags()).as("a silent cluster cannot tell").isEmpty();
        assertThat(first.backlog("orders")).isEmpty();
    }

    @Test
    void transactionsCommitRollBackOrWaitForTheCheckBack() throws Exception {
        BoundProducer producer = producer(Optional.of(prepared -> TransactionResolution.ROLLBACK));

        producer.sendInTransaction(message("orders", "committed"), prepared -> TransactionResolution.COMMIT);
        producer.sendInTransaction(message("orders", "rolled-back"), prepared -> TransactionResolution.ROLLBACK);
        producer.sendInTransaction(message("orders", "unknown"), prepared -> TransactionResolution.UNKNOWN);

        assertThat(bodies(cluster.stored("orders"))).containsExactly("committed");
        assertThat(bodies(cluster.preparedMessages())).containsExactly("unknown");
        String unknown = cluster.preparedMessages().get(0).messageId();
        assertThat(cluster.checkBack()).containsExactly(Map.entry(unknown, TransactionResolution.ROLLBACK));
        assertThat(cluster.preparedMessages()).isEmpty();
        assertThat(bodies(cluster.stored("orders"))).containsExactly("committed");
        assertThatThrownBy(() -> producer(Optional.empty()).sendInTransaction(message("orders", "x"), p -> TransactionResolution.COMMIT))
                .isInstanceOf(InvalidConfigurationException.class);
    }

    @Test
    void aRequestIsAnsweredByTheTopicsResponderOrTimesOut() throws Exception {
        BoundProducer producer = producer(Optional.empty());
        cluster.respond("delay", request -> ("re:" + new String(request.body(), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8));

        assertThat(new String(producer.request(message("delay", "cancel"), TIMEOUT), StandardCharsets.UTF_8)).isEqualTo("re:cancel");
        assertThatThrownBy(() -> producer.request(message("nobody", "hello"), TIMEOUT)).isInstanceOf(SendFailedException.class)
                .hasMessageContaining("reply");
    }

    private BoundProducer producer(Optional<TransactionCheckHandler> handler) throws Exception {
        return binding.createProducer(new BoundProducerSpec(CLUSTER, "group", TIMEOUT, 1024, handler));
    }

    private void consumer(String group, String tags, boolean ordered, StartPosition start, BoundListener listener) throws Exception {
        binding.createConsumer(spec(group, tags, ordered, start), listener);
    }

    private static BoundConsumerSpec spec(String group, String tags, boolean ordered, StartPosition start) {
        return BoundConsumerSpec.builder(CLUSTER, group, "orders").tagFilter(tags).ordered(ordered).consumeThreads(1)
                .maxDeliveryAttempts(3).startPosition(start).build();
    }

    private static BoundListener recording(List<String> bodies) {
        return message -> {
            bodies.add(new String(message.body(), StandardCharsets.UTF_8));
            return ConsumeResult.SUCCESS;
        };
    }

    private static List<String> bodies(List<BoundMessage> messages) {
        return messages.stream().map(m -> new String(m.body(), StandardCharsets.UTF_8)).toList();
    }

    private static PhysicalMessage message(String topic, String body) {
        return message(topic, body, Optional.empty(), Optional.empty());
    }

    private static PhysicalMessage message(String topic, String body, Optional<String> shardingKey, Optional<String> tag) {
        return new PhysicalMessage(topic, body.getBytes(StandardCharsets.UTF_8), List.of(), tag, Map.of(), shardingKey);
    }
}
