package io.lanemq.core.internal.produce;

import static io.lanemq.core.internal.produce.ProducerFixture.TOPIC;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.Message;
import io.lanemq.api.SendFailedException;
import io.lanemq.api.SendResult;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.config.BatchConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.ProducerConfig;
import io.lanemq.config.TopicRoute;
import io.lanemq.testkit.memory.MemoryCluster;
import io.lanemq.testkit.memory.SendRecord;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Batch gathering through the whole producer (validation, routing, failover) on an in-memory binding: what
 * concurrent sends become on the wire, and that each message keeps its own outcome.
 */
class SendGatheringTest {
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(3);
    /** Long enough that sends made one after another without waiting find the first request still out. */
    private static final Duration BROKER_TIME = Duration.ofMillis(50);

    private final ProducerFixture fixture = new ProducerFixture();

    @AfterEach
    void close() throws Exception {
        fixture.close();
    }

    @Test
    void sendsMadeWhileARequestIsOutLeaveTogetherAndEachGetsItsOwnResult() throws Exception {
        cluster("cluster-a").holdAnswers(); // the first request stays out until every send is made, however slow the host
        RoutingProducer producer = producer(new BatchConfig(64, 1 << 20, 1, Duration.ZERO));

        List<CompletableFuture<SendResult>> sent = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            sent.add(producer.sendAsync(message("m" + i, null)));
        }
        cluster("cluster-a").releaseAnswers();
        List<SendResult> results = joinAll(sent);

        List<BoundMessage> stored = cluster("cluster-a").stored("orders");
        assertThat(stored).as("every message stored once").hasSize(40);
        assertThat(cluster("cluster-a").requests()).as("requests for 40 sends: the first alone, the rest while it was out")
                .isEqualTo(2);
        assertThat(results).extracting(SendResult::messageId).as("each send's own id, as stored")
                .containsExactlyInAnyOrderElementsOf(stored.stream().map(BoundMessage::messageId).toList())
                .doesNotHaveDuplicates();
        for (int i = 0; i < 40; i++) {
            String id = results.get(i).messageId();
            assertThat(stored.stream().filter(m -> m.messageId().equals(id)).findFirst().orElseThrow().body())
                    .as("the result of send %d names the message that send carried", i).isEqualTo(bytes("m" + i));
        }
    }

    @Test
    void aKeysSendsAreStoredInTheOrderTheyWereMadeEvenAsynchronously() throws Exception {
        cluster("cluster-a").delaySends(Duration.ofMillis(5));
        RoutingProducer producer = producer(new BatchConfig(8, 1 << 20, 4, Duration.ZERO));

        List<CompletableFuture<SendResult>> sent = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            sent.add(producer.sendAsync(message(String.valueOf(i), "customer-7")));
            sent.add(producer.sendAsync(message("other-" + i, "customer-9")));
        }
        joinAll(sent);

        List<String> customer7 = cluster("cluster-a").stored("orders").stream()
                .filter(m -> m.shardingKey().equals(java.util.Optional.of("customer-7")))
                .map(m -> new String(m.body(), StandardCharsets.UTF_8)).toList();
        assertThat(customer7).as("customer-7's messages in one queue, in send order")
                .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 100).mapToObj(String::valueOf).toList());
        Map<Long, Set<String>> keysPerRequest = cluster("cluster-a").sends().stream().collect(Collectors.groupingBy(
                SendRecord::request, Collectors.mapping(r -> r.message().shardingKey().orElse(""), Collectors.toSet())));
        assertThat(keysPerRequest.values()).as("no request mixes keys").allMatch(keys -> keys.size() == 1);
        assertThat(keysPerRequest).as("gathered: fewer requests than the 200 sends").hasSizeLessThan(100);
    }

    @Test
    void aRequestNeverMixesTopicsNorCarriesADelayedMessage() throws Exception {
        cluster("cluster-a").delaySends(BROKER_TIME);
        PlatformConfig config = ProducerFixture.twoClusters(producerConfig(new BatchConfig(64, 1 << 20, 1, Duration.ZERO)))
                .topic(topic(TOPIC, "orders")).topic(topic("refunds", "refunds")).build();
        RoutingProducer producer = fixture.producer(config);

        List<CompletableFuture<SendResult>> sent = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            sent.add(producer.sendAsync(message("o" + i, null)));
            sent.add(producer.sendAsync(Message.builder("refunds").body(bytes("r" + i)).build()));
            sent.add(producer.sendAsync(Message.builder(TOPIC).body(bytes("d" + i)).deliverAt(Instant.now().plusSeconds(60)).build()));
        }
        joinAll(sent);

        List<SendRecord> records = cluster("cluster-a").sends();
        Map<Long, Set<String>> topicsPerRequest = records.stream().collect(Collectors.groupingBy(SendRecord::request,
                Collectors.mapping(r -> r.message().topic(), Collectors.toSet())));
        assertThat(topicsPerRequest.values()).allMatch(topics -> topics.size() == 1);
        assertThat(records.stream().filter(r -> r.kind() == SendRecord.Kind.BATCH).map(r -> r.message().topic()).distinct())
                .as("gathered topics").containsExactlyInAnyOrder("orders", "refunds");
        assertThat(records).as("the 20 delayed messages, each its own request to the delay topic")
                .filteredOn(r -> !r.message().topic().equals("orders") && !r.message().topic().equals("refunds"))
                .hasSize(20).allMatch(r -> r.kind() == SendRecord.Kind.SEND);
    }

    @Test
    void aFailedRequestsMessagesMoveToTheOtherClusterAndNoneIsStoredTwice() throws Exception {
        cluster("cluster-a").delaySends(BROKER_TIME).failSends(2);
        PlatformConfig config = ProducerFixture.twoClusters(producerConfig(new BatchConfig(64, 1 << 20, 1, Duration.ZERO)))
                .topic(new LogicTopicConfig(TOPIC, List.of(new TopicRoute("cluster-a", "orders", 100),
                        new TopicRoute("cluster-b", "orders_b", 1)), Map.of())).build();
        RoutingProducer producer = fixture.producer(config);

        List<CompletableFuture<SendResult>> sent = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            sent.add(producer.sendAsync(message("m" + i, null)));
        }
        List<SendResult> results = joinAll(sent);

        List<BoundMessage> stored = new ArrayList<>(cluster("cluster-a").stored("orders"));
        stored.addAll(cluster("cluster-b").stored("orders_b"));
        assertThat(stored).extracting(m -> new String(m.body(), StandardCharsets.UTF_8)).as("each message stored once")
                .hasSize(30).doesNotHaveDuplicates();
        assertThat(results).extracting(SendResult::cluster).as("the failed requests' messages went to cluster-b")
                .contains("cluster-b");
        List<String> failedOnA = cluster("cluster-a").sends().stream().filter(r -> r.outcome() == SendRecord.Outcome.FAILED)
                .map(r -> new String(r.message().body(), StandardCharsets.UTF_8)).toList();
        assertThat(cluster("cluster-b").stored("orders_b")).extracting(m -> new String(m.body(), StandardCharsets.UTF_8))
                .as("every message of the failed requests, retried one by one").containsAll(failedOnA);
    }

    @Test
    void aSendBeyondMaxHeldBytesWaitsForRoomThenFailsNamingTheLimitAndWhatWasAcceptedIsStored() throws Exception {
        cluster("cluster-a").delaySends(Duration.ofMillis(700));
        ProducerConfig settings = new ProducerConfig(Duration.ofMillis(2000), 1024, 0, Duration.ofMillis(2000))
                .withMaxHeldBytes(3 * 1024).withBatch(BatchConfig.OFF);
        RoutingProducer producer = fixture.producer(ProducerFixture.config(settings, routesToA()));
        byte[] kib = new byte[1024];

        List<CompletableFuture<SendResult>> accepted = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            accepted.add(producer.sendAsync(Message.builder(TOPIC).body(kib).build()));
        }
        // A reload shortens the send timeout below what the three held sends take: the next send cannot get room.
        fixture.reload(ProducerFixture.config(new ProducerConfig(Duration.ofMillis(300), 1024, 0, Duration.ofMillis(300))
                .withMaxHeldBytes(3 * 1024).withBatch(BatchConfig.OFF), routesToA()));
        long start = System.nanoTime();
        CompletableFuture<SendResult> fourth = producer.sendAsync(Message.builder(TOPIC).body(kib).build());
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(waitedMillis).as("the caller waited for room up to its send timeout").isGreaterThanOrEqualTo(290);
        assertThatThrownBy(fourth::join).hasCauseInstanceOf(SendFailedException.class)
                .hasMessageContaining("maxHeldBytes (3072)").hasMessageContaining("nothing was sent");
        assertThat(joinAll(accepted)).as("the three sends already accepted").hasSize(3);
        assertThat(cluster("cluster-a").stored("orders")).as("stored: the three, not the fourth").hasSize(3);
        assertThat(cluster("cluster-a").attempts()).isEqualTo(3);
    }

    @Test
    void aSendThatFindsNoRoomLeavesAsSoonAsAnEarlierOneIsAnswered() throws Exception {
        cluster("cluster-a").delaySends(Duration.ofMillis(400));
        ProducerConfig settings = new ProducerConfig(SEND_TIMEOUT, 1024, 0, SEND_TIMEOUT)
                .withMaxHeldBytes(2 * 1024).withBatch(BatchConfig.OFF);
        RoutingProducer producer = fixture.producer(ProducerFixture.config(settings, routesToA()));
        byte[] kib = new byte[1024];

        List<CompletableFuture<SendResult>> sent = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < 4; i++) {
            sent.add(producer.sendAsync(Message.builder(TOPIC).body(kib).build()));
        }
        long callerMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(joinAll(sent)).hasSize(4);
        assertThat(callerMillis).as("the third caller waited for the first two answers (400 ms)").isGreaterThanOrEqualTo(390);
        assertThat(cluster("cluster-a").stored("orders")).hasSize(4);
    }

    @Test
    void aGatheredMessageWhoseSendEndedBeforeItLeftIsNeverSent() throws Exception {
        // The first request takes longer than the send timeout: the ones gathered behind it time out unsent.
        cluster("cluster-a").delaySends(Duration.ofMillis(1200));
        ProducerConfig settings = new ProducerConfig(Duration.ofMillis(800), 1024, 0, Duration.ofMillis(800))
                .withBatch(new BatchConfig(64, 1 << 20, 1, Duration.ZERO));
        RoutingProducer producer = fixture.producer(ProducerFixture.config(settings, routesToA()));

        List<CompletableFuture<SendResult>> sent = sendMany(producer, 5);
        for (CompletableFuture<SendResult> f : sent) {
            assertThatThrownBy(() -> f.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(SendFailedException.class)
                    .hasMessageContaining("send timeout");
        }
        // The first request's answer frees the slot; the four behind it were withdrawn and must not follow it.
        await().atMost(Duration.ofSeconds(5)).until(() -> cluster("cluster-a").stored("orders").size() == 1);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1))
                .until(() -> cluster("cluster-a").requests() == 1 && cluster("cluster-a").attempts() == 1);
    }

    @Test
    void aReloadedGatheringAppliesToTheNextSends() throws Exception {
        // Held, not delayed: with a delay, a loop of sends slower than the broker (a loaded host) let the first
        // answer come back before the last sends were made, and they left as a third request.
        cluster("cluster-a").holdAnswers();
        RoutingProducer producer = producer(new BatchConfig(64, 1 << 20, 1, Duration.ZERO));
        List<CompletableFuture<SendResult>> gathered = sendMany(producer, 20);
        assertThat(cluster("cluster-a").requests()).as("the first send left alone, the others wait behind it").isEqualTo(1);
        cluster("cluster-a").releaseAnswers();
        joinAll(gathered);
        assertThat(cluster("cluster-a").requests()).as("gathered").isEqualTo(2);

        PlatformConfig off = ProducerFixture.config(producerConfig(BatchConfig.OFF), routesToA());
        fixture.reload(off);
        joinAll(sendMany(producer, 20));

        assertThat(cluster("cluster-a").requests()).as("after the reload: one request per send").isEqualTo(2 + 20);
        assertThat(cluster("cluster-a").openProducers()).as("a gathering change replaces no connection").hasSize(1);
    }

    private List<CompletableFuture<SendResult>> sendMany(RoutingProducer producer, int count) {
        List<CompletableFuture<SendResult>> sent = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sent.add(producer.sendAsync(message("m" + i, null)));
        }
        return sent;
    }

    private RoutingProducer producer(BatchConfig batch) throws Exception {
        return fixture.producer(ProducerFixture.config(producerConfig(batch), routesToA()));
    }

    private static List<TopicRoute> routesToA() {
        return List.of(new TopicRoute("cluster-a", "orders", 100), new TopicRoute("cluster-b", "orders_b", 0));
    }

    private static ProducerConfig producerConfig(BatchConfig batch) {
        return new ProducerConfig(SEND_TIMEOUT, 1024, 1, Duration.ofSeconds(1)).withBatch(batch);
    }

    private static LogicTopicConfig topic(String name, String physical) {
        return new LogicTopicConfig(name, List.of(new TopicRoute("cluster-a", physical, 100),
                new TopicRoute("cluster-b", physical + "_b", 0)), Map.of());
    }

    private static Message message(String body, String shardingKey) {
        Message.Builder builder = Message.builder(TOPIC).body(bytes(body));
        if (shardingKey != null) {
            builder.shardingKey(shardingKey);
        }
        return builder.build();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static List<SendResult> joinAll(List<CompletableFuture<SendResult>> sent) throws Exception {
        List<SendResult> results = new ArrayList<>();
        for (CompletableFuture<SendResult> f : sent) {
            try {
                results.add(f.get(10, TimeUnit.SECONDS));
            } catch (ExecutionException e) {
                throw new AssertionError("a send failed", e.getCause());
            }
        }
        return results;
    }

    private MemoryCluster cluster(String name) {
        return fixture.binding.cluster(name);
    }
}
