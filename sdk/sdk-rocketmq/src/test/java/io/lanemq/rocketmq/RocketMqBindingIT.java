package io.lanemq.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.InvalidMessageException;
import io.lanemq.api.TransactionResolution;
import io.lanemq.api.spi.BoundConsumer;
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
import io.lanemq.testkit.RocketMqStack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** The binding against real brokers: cluster idc-a of {@link FastClusterA}. */
@Execution(ExecutionMode.CONCURRENT) // waits on its own topics and groups: see junit-platform.properties
class RocketMqBindingIT {
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    /** RocketMQ's first redelivery waits for delay level 3, 10 s, unless the broker's levels are changed. */
    private static final Duration RETRY_DEADLINE = Duration.ofSeconds(40);

    private static RocketMqStack stack;
    private static ClusterEndpoint endpoint;
    private final RocketMqBinding binding = new RocketMqBinding();

    @BeforeAll
    static void startStack() {
        stack = FastClusterA.stack();
        endpoint = FastClusterA.endpoint();
    }

    private static String unique(String prefix) {
        return FastClusterA.unique(prefix);
    }

    private static String createTopic(String prefix, int queues) {
        String topic = unique(prefix);
        stack.createTopic(endpoint.clusterName(), topic, queues);
        return topic;
    }

    private BoundProducer producer(Optional<TransactionCheckHandler> checker) throws Exception {
        return binding.createProducer(new BoundProducerSpec(endpoint, unique("producer"), Duration.ofSeconds(5),
                4 * 1024 * 1024, checker));
    }

    private BoundConsumer consumer(String topic, boolean ordered, BoundListener listener) throws Exception {
        return binding.createConsumer(BoundConsumerSpec.builder(endpoint, unique("group"), topic).ordered(ordered)
                .consumeThreads(2).maxDeliveryAttempts(3).startPosition(StartPosition.EARLIEST).build(), listener);
    }

    private static BoundListener collectInto(Queue<BoundMessage> received) {
        return message -> {
            received.add(message);
            return ConsumeResult.SUCCESS;
        };
    }

    private static PhysicalMessage plain(String topic, String body) {
        return new PhysicalMessage(topic, body.getBytes(StandardCharsets.UTF_8), List.of(), Optional.empty(), Map.of(),
                Optional.empty());
    }

    private static String text(BoundMessage message) {
        return new String(message.body(), StandardCharsets.UTF_8);
    }

    @Test
    void everyFieldRoundTripsAndSenderAndReceiverAgreeOnTheMessageId() throws Exception {
        String topic = createTopic("roundtrip", 4);
        Queue<BoundMessage> received = new ConcurrentLinkedQueue<>();
        try (BoundProducer producer = producer(Optional.empty());
             BoundConsumer ignored = consumer(topic, false, collectInto(received))) {
            PhysicalMessage message = new PhysicalMessage(topic, "{\"orderId\":42}".getBytes(StandardCharsets.UTF_8),
                    List.of("order-42", "customer-7"), Optional.of("paid"),
                    Map.of("source", "checkout", "note", "with spaces and ünïcode"), Optional.of("customer-7"));
            BoundSendResult sync = producer.send(message);
            BoundSendResult async = producer.sendAsync(plain(topic, "async")).get(10, TimeUnit.SECONDS);

            await().atMost(DEADLINE).until(() -> received.size() >= 2);
            Map<String, BoundMessage> byId = received.stream()
                    .collect(Collectors.toMap(BoundMessage::messageId, m -> m, (a, b) -> a));
            assertThat(byId).containsKeys(sync.messageId(), async.messageId());

            BoundMessage got = byId.get(sync.messageId());
            assertThat(got.topic()).isEqualTo(topic).isEqualTo(sync.topic());
            assertThat(got.body()).isEqualTo(message.body());
            assertThat(got.keys()).containsExactly("order-42", "customer-7");
            assertThat(got.tag()).hasValue("paid");
            assertThat(got.properties()).isEqualTo(message.properties());
            assertThat(got.shardingKey()).hasValue("customer-7");
            assertThat(got.brokerName()).isEqualTo(sync.brokerName());
            assertThat(got.queueId()).isEqualTo(sync.queueId());
            assertThat(got.queueOffset()).isEqualTo(sync.queueOffset());
            assertThat(got.deliveryAttempt()).isEqualTo(1);
            assertThat(got.bornTimestamp()).isPositive();

            BoundMessage gotAsync = byId.get(async.messageId());
            assertThat(text(gotAsync)).isEqualTo("async");
            assertThat(gotAsync.keys()).isEmpty();
            assertThat(gotAsync.tag()).isEmpty();
            assertThat(gotAsync.properties()).isEmpty();
            assertThat(gotAsync.shardingKey()).isEmpty();
        }
    }

    @Test
    void sameShardingKeyGoesToOneQueueAndIsConsumedInOrder() throws Exception {
        String topic = createTopic("sharded", 8);
        Queue<BoundMessage> received = new ConcurrentLinkedQueue<>();
        try (BoundProducer producer = producer(Optional.empty());
             BoundConsumer ignored = consumer(topic, true, collectInto(received))) {
            Set<Integer> queuesOfOneKey = ConcurrentHashMap.newKeySet();
            Set<Integer> queuesOfAllKeys = ConcurrentHashMap.newKeySet();
            for (int i = 0; i < 20; i++) {
                PhysicalMessage keyed = new PhysicalMessage(topic, ("customer-7:" + i).getBytes(StandardCharsets.UTF_8),
                        List.of(), Optional.empty(), Map.of(), Optional.of("customer-7"));
                // Alternate sync and async sends: both paths must pick the same queue.
                BoundSendResult result = i % 2 == 0 ? producer.send(keyed) : producer.sendAsync(keyed).get(10, TimeUnit.SECONDS);
                queuesOfOneKey.add(result.queueId());
                PhysicalMessage other = new PhysicalMessage(topic, ("other:" + i).getBytes(StandardCharsets.UTF_8),
                        List.of(), Optional.empty(), Map.of(), Optional.of("customer-" + (100 + i)));
                queuesOfAllKeys.add(producer.send(other).queueId());
            }
            assertThat(queuesOfOneKey).containsExactly(ShardingKeySelector.queueIndex("customer-7", 8));
            assertThat(queuesOfAllKeys).hasSizeGreaterThan(1);

            await().atMost(DEADLINE).until(() -> received.size() >= 40);
            List<String> oneKeyInDeliveryOrder = received.stream().map(RocketMqBindingIT::text)
                    .filter(body -> body.startsWith("customer-7:")).toList();
            assertThat(oneKeyInDeliveryOrder).containsExactlyElementsOf(
                    java.util.stream.IntStream.range(0, 20).mapToObj(i -> "customer-7:" + i).toList());
        }
    }

    @Test
    void checkBacksResolveUnknownTransactionsAndRolledBackMessagesAreNeverDelivered() throws Exception {
        String topic = createTopic("tx", 1);
        Queue<BoundMessage> received = new ConcurrentLinkedQueue<>();
        Map<String, TransactionResolution> answers = new ConcurrentHashMap<>();
        Queue<BoundMessage> checked = new ConcurrentLinkedQueue<>();
        TransactionCheckHandler checker = prepared -> {
            checked.add(prepared);
            return answers.getOrDefault(prepared.messageId(), TransactionResolution.UNKNOWN);
        };
        try (BoundProducer producer = producer(Optional.of(checker));
             BoundConsumer ignored = consumer(topic, false, collectInto(received))) {
            Queue<BoundSendResult> preparedResults = new ConcurrentLinkedQueue<>();
            PhysicalMessage committedLater = new PhysicalMessage(topic, "commit-on-check".getBytes(StandardCharsets.UTF_8),
                    List.of("tx-1"), Optional.of("tx"), Map.of("orderId", "1"), Optional.empty());
            BoundSendResult toCommit = producer.sendInTransaction(committedLater, prepared -> {
                preparedResults.add(prepared);
                answers.put(prepared.messageId(), TransactionResolution.COMMIT);
                return TransactionResolution.UNKNOWN;
            });
            BoundSendResult toRollBackOnCheck = producer.sendInTransaction(plain(topic, "rollback-on-check"), prepared -> {
                answers.put(prepared.messageId(), TransactionResolution.ROLLBACK);
                return TransactionResolution.UNKNOWN;
            });
            BoundSendResult rolledBack = producer.sendInTransaction(plain(topic, "rollback-at-once"),
                    prepared -> TransactionResolution.ROLLBACK);
            BoundSendResult committed = producer.sendInTransaction(plain(topic, "commit-at-once"),
                    prepared -> TransactionResolution.COMMIT);

            // The prepared result knows the final id but not yet where the message is stored.
            assertThat(preparedResults).singleElement().satisfies(prepared -> {
                assertThat(prepared.messageId()).isEqualTo(toCommit.messageId());
                assertThat(prepared.topic()).isEqualTo(topic);
                assertThat(prepared.queueId()).isEqualTo(-1);
                assertThat(prepared.queueOffset()).isEqualTo(-1);
            });
            assertThat(toCommit.brokerName()).isNotNull();
            assertThat(toCommit.queueId()).isZero();

            await().atMost(DEADLINE).until(() -> received.stream().map(BoundMessage::messageId).toList()
                    .containsAll(List.of(toCommit.messageId(), committed.messageId())));
            await().atMost(DEADLINE).until(() -> checked.stream()
                    .anyMatch(m -> m.messageId().equals(toRollBackOnCheck.messageId())));
            assertThat(checked).filteredOn(m -> m.messageId().equals(toCommit.messageId())).first().satisfies(m -> {
                assertThat(m.topic()).isEqualTo(topic);
                assertThat(m.properties()).isEqualTo(Map.of("orderId", "1"));
                assertThat(m.keys()).containsExactly("tx-1");
                assertThat(m.tag()).hasValue("tx");
            });

            // Single queue: once a message sent after the rollbacks is consumed, nothing else can be in between.
            BoundSendResult marker = producer.send(plain(topic, "marker"));
            await().atMost(DEADLINE).until(() -> received.stream().anyMatch(m -> m.messageId().equals(marker.messageId())));
            assertThat(received).extracting(RocketMqBindingIT::text)
                    .contains("commit-on-check", "commit-at-once", "marker")
                    .doesNotContain("rollback-on-check", "rollback-at-once");
            assertThat(received).extracting(BoundMessage::messageId)
                    .doesNotContain(rolledBack.messageId(), toRollBackOnCheck.messageId());
        }
    }

    @Test
    void retryLaterRedeliversWithTheOriginalTopicAndTheNextAttempt() throws Exception {
        String topic = createTopic("retry", 2);
        Queue<BoundMessage> received = new ConcurrentLinkedQueue<>();
        BoundListener failFirst = message -> {
            received.add(message);
            return message.deliveryAttempt() == 1 ? ConsumeResult.RETRY_LATER : ConsumeResult.SUCCESS;
        };
        try (BoundProducer producer = producer(Optional.empty());
             BoundConsumer ignored = consumer(topic, false, failFirst)) {
            PhysicalMessage message = new PhysicalMessage(topic, "again".getBytes(StandardCharsets.UTF_8),
                    List.of("k1"), Optional.of("t1"), Map.of("p", "v"), Optional.empty());
            BoundSendResult sent = producer.send(message);

            await().atMost(RETRY_DEADLINE).until(() -> received.size() >= 2);
            assertThat(received).allSatisfy(delivery -> {
                assertThat(delivery.messageId()).isEqualTo(sent.messageId());
                assertThat(delivery.topic()).isEqualTo(topic);
                assertThat(delivery.properties()).isEqualTo(Map.of("p", "v"));
                assertThat(delivery.keys()).containsExactly("k1");
                assertThat(delivery.tag()).hasValue("t1");
            });
            assertThat(received).extracting(BoundMessage::deliveryAttempt).startsWith(1, 2);
        }
    }

    @Test
    void invalidMessagesAndMissingCheckersAreRefusedAndNothingIsSent() throws Exception {
        String topic = createTopic("invalid", 1);
        Queue<BoundMessage> received = new ConcurrentLinkedQueue<>();
        try (BoundProducer producer = producer(Optional.empty());
             BoundConsumer ignored = consumer(topic, false, collectInto(received))) {
            PhysicalMessage reserved = new PhysicalMessage(topic, "bad".getBytes(StandardCharsets.UTF_8), List.of(),
                    Optional.empty(), Map.of("UNIQ_KEY", "spoofed"), Optional.empty());
            assertThatThrownBy(() -> producer.send(reserved))
                    .isInstanceOf(InvalidMessageException.class)
                    .hasMessageContaining("'UNIQ_KEY'");
            assertThatThrownBy(() -> producer.sendAsync(reserved).get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(InvalidMessageException.class);
            assertThatThrownBy(() -> producer.sendInTransaction(plain(topic, "tx"), prepared -> TransactionResolution.COMMIT))
                    .isInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining("has no transaction checker")
                    .hasMessageContaining(endpoint.clusterName());

            BoundSendResult marker = producer.send(plain(topic, "marker"));
            await().atMost(DEADLINE).until(() -> received.stream().anyMatch(m -> m.messageId().equals(marker.messageId())));
            assertThat(received).extracting(RocketMqBindingIT::text).containsExactly("marker");
        }
    }

    @Test
    void membersOfAGroupSeeEachOthersTagsUntilOneLeaves() throws Exception {
        String topic = createTopic("members", 2);
        String group = unique("members");
        BoundListener ignoring = message -> ConsumeResult.SUCCESS;
        BoundConsumerSpec spec = BoundConsumerSpec.builder(endpoint, group, topic).consumeThreads(1).maxDeliveryAttempts(3)
                .startPosition(StartPosition.LATEST).build();
        try (BoundConsumer first = binding.createConsumer(spec.withMemberTag("A.X~127.0.0.1~7001"), ignoring);
             BoundConsumer untagged = binding.createConsumer(spec, ignoring)) {
            BoundConsumer second = binding.createConsumer(spec.withMemberTag("base~127.0.0.1~7002"), ignoring);
            try {
                await().atMost(DEADLINE).untilAsserted(() -> assertThat(first.memberTags()).hasValueSatisfying(tags ->
                        assertThat(tags).containsExactlyInAnyOrder("A.X~127.0.0.1~7001", "base~127.0.0.1~7002")));
                assertThat(untagged.memberTags()).hasValueSatisfying(tags -> assertThat(tags).hasSize(2));
            } finally {
                second.close();
            }
            // A closing consumer unregisters from the brokers, so it leaves the list at once.
            await().atMost(DEADLINE).untilAsserted(() -> assertThat(first.memberTags())
                    .hasValueSatisfying(tags -> assertThat(tags).containsExactly("A.X~127.0.0.1~7001")));
            assertThat(second.memberTags()).as("a closed consumer cannot tell").isEmpty();
        }
    }

    @Test
    void theBacklogIsWhatTheGroupHasNotCommittedAndAskingForItLeavesTheConsumersOwnProgressAlone() throws Exception {
        String topic = createTopic("backlog", 1);
        Queue<BoundMessage> received = new ConcurrentLinkedQueue<>();
        AtomicReference<CountDownLatch> gate = new AtomicReference<>(new CountDownLatch(0));
        BoundListener gated = message -> {
            try {
                gate.get().await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ConsumeResult.RETRY_LATER;
            }
            received.add(message);
            return ConsumeResult.SUCCESS;
        };
        long consumerStart = System.nanoTime();
        try (BoundProducer producer = producer(Optional.empty()); BoundConsumer consumer = consumer(topic, false, gated)) {
            producer.send(plain(topic, "first"));
            // Precondition: the group has an offset on the broker; a group without one has none a read could put back.
            await().atMost(DEADLINE).until(() -> received.size() == 1 && consumer.backlog(topic).orElse(-1) == 0);

            CountDownLatch held = new CountDownLatch(1);
            gate.set(held);
            for (int i = 0; i < 5; i++) {
                producer.send(plain(topic, "held-" + i));
            }
            await().atMost(DEADLINE).until(() -> consumer.backlog(topic).orElse(-1) == 5);
            held.countDown();
            await().atMost(DEADLINE).until(() -> received.size() == 6);
            // Asked over and over while the consumer commits: its offsets reach the broker by RocketMQ's persist task,
            // which starts 10 s after the client instance (MQClientInstance.startScheduledTask) and then runs every
            // persist interval (1 s here), or with the next pull, which waits in the broker's long poll (15 s) on an idle
            // queue. So 0 is due 11 s after the consumer's start at the latest (a clean-clone run that got here 2 s
            // after it failed a 5 s bound). A read that wrote the broker's older offset back into the consumer's table
            // kept the offset from the broker until the long poll returned: 19.7 s.
            long start = System.nanoTime();
            Duration bound = Duration.ofSeconds(5).plusNanos(Math.max(0, consumerStart + TimeUnit.SECONDS.toNanos(11) - start));
            await().atMost(bound).pollInterval(Duration.ofMillis(20))
                    .until(() -> consumer.backlog(topic).orElse(-1) == 0);
            System.out.printf("backlog: 0 %d ms after the last message was consumed%n", (System.nanoTime() - start) / 1_000_000);
        }
    }
}
