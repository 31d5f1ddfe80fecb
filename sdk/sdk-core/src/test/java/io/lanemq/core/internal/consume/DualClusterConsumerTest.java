package io.lanemq.core.internal.consume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.BatchResult;
import io.lanemq.api.ClientHealth;
import io.lanemq.api.Batching;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.MessageListener;
import io.lanemq.api.MessagingException;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.Subscription;
import io.lanemq.api.UnknownTopicException;
import io.lanemq.api.spi.PhysicalMessage;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.ProducerConfig;
import io.lanemq.config.StartPosition;
import io.lanemq.config.TopicRoute;
import io.lanemq.core.internal.consume.listener.GatheringListener;
import io.lanemq.core.internal.consume.proxy.ProxyIdentity;
import io.lanemq.support.attach.AttachPolicy;
import io.lanemq.core.internal.consume.attach.ClusterAttachments;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.Backoff;
import io.lanemq.testkit.memory.MemoryBinding;
import io.lanemq.testkit.memory.MemoryCluster;
import io.lanemq.support.Ticker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** DIRECT consumption of every cluster of a logic topic, on the in-memory binding: what runs where, and what reloads change. */
class DualClusterConsumerTest {
    private static final Subscription BILLING = Subscription.builder("orders", "billing").build();
    private static final ConsumerConfig SETTINGS = new ConsumerConfig(2, 3, StartPosition.EARLIEST);
    /** A short send timeout: a topic move drains for it (plus a second) before the old topic is let go. */
    private static final ProducerConfig PRODUCER = new ProducerConfig(Duration.ofMillis(100), 1024, 1, Duration.ofMillis(50));
    private static final Duration WAIT = Duration.ofSeconds(10);
    /** How often a lag gauge is refreshed here: 10 s in production. */
    private static final Duration LAG_EVERY = Duration.ofMillis(20);
    /** Attach retries after 20 ms doubling to 200 ms; at most 50 attempts a second. */
    private static final AttachPolicy FAST_ATTACH = new AttachPolicy(Duration.ofMillis(500),
            Backoff.exact(Duration.ofMillis(20), Duration.ofMillis(200)), Backoff.exact(Duration.ofSeconds(10), Duration.ofSeconds(10)),
            50, Optional.empty());

    private final MemoryBinding binding = new MemoryBinding();
    private final SdkMetrics metrics = new SdkMetrics(new SimpleMeterRegistry(), "test");
    private final List<ReceivedMessage> received = new CopyOnWriteArrayList<>();
    private final MessageListener recording = message -> {
        received.add(message);
        return ConsumeResult.SUCCESS;
    };
    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
        binding.close();
    }

    @Test
    void everyClusterOfTheTopicIsConsumedWhateverItsSendWeight() throws Exception {
        start(config(route("cluster-a", "orders_a", 100), route("cluster-b", "orders_b", 0)), recording, Optional.empty());

        publish("cluster-a", "orders_a", "one");
        publish("cluster-b", "orders_b", "two");

        await().atMost(WAIT).until(() -> received.size() == 2);
        assertThat(received).extracting(ReceivedMessage::cluster, ReceivedMessage::logicTopic)
                .containsExactlyInAnyOrder(tuple("cluster-a", "orders"),
                        tuple("cluster-b", "orders"));
    }

    @Test
    void aListenerThatThrowsGetsTheMessageAgainUntilItsLastAttemptThenItIsDeadLettered() throws Exception {
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        List<Boolean> lastFlags = new CopyOnWriteArrayList<>();
        start(config(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b", 1)), message -> {
            attempts.add(message.deliveryAttempt());
            lastFlags.add(message.lastDeliveryAttempt());
            assertThat(message.maxDeliveryAttempts()).hasValue(3);
            throw new IllegalStateException("listener bug");
        }, Optional.empty());

        publish("cluster-a", "orders_a", "poison");

        await().atMost(WAIT).until(() -> cluster("cluster-a").deadLetters("billing").size() == 1);
        assertThat(attempts).as("delivery attempts, maxDeliveryAttempts 3").containsExactly(1, 2, 3);
        assertThat(lastFlags).as("the listener knows which attempt is the last before the dead-letter topic")
                .containsExactly(false, false, true);
    }

    @Test
    void aMessageTheListenerRejectsGoesToItsClustersDeadLettersAtTheFirstAttemptAndIsCounted() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        start(config(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b", 1)), message -> {
            String body = new String(message.body(), StandardCharsets.UTF_8);
            seen.add(body);
            return body.startsWith("bad") ? ConsumeResult.DEAD_LETTER : ConsumeResult.SUCCESS;
        }, Optional.empty());

        publish("cluster-a", "orders_a", "bad-a");
        publish("cluster-b", "orders_b", "bad-b");
        publish("cluster-a", "orders_a", "good");

        await().atMost(WAIT).until(() -> cluster("cluster-a").deadLetters("billing").size() == 1
                && cluster("cluster-b").deadLetters("billing").size() == 1 && seen.contains("good"));
        assertThat(cluster("cluster-a").deadLetters("billing")).extracting(m -> m.deliveryAttempt())
                .as("no attempt spent on retries (max 3)").containsExactly(1);
        assertThat(seen).as("each delivered once").containsExactlyInAnyOrder("bad-a", "bad-b", "good");
        for (String cluster : List.of("cluster-a", "cluster-b")) {
            assertThat(metrics.registry().get(SdkMetrics.CONSUMED).tag(SdkMetrics.TAG_CLUSTER, cluster)
                    .tag(SdkMetrics.TAG_OUTCOME, "dead_letter").counter().count()).as("dead letters on %s", cluster).isEqualTo(1.0);
        }
    }

    @Test
    void aBatchListenerDeadLettersSomeMessagesOfItsBatchAndTheOthersAreDone() throws Exception {
        List<String> done = new CopyOnWriteArrayList<>();
        start(config(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b", 1)),
                new GatheringListener(batch -> {
                    List<Integer> rejected = new ArrayList<>();
                    for (int i = 0; i < batch.size(); i++) {
                        String body = new String(batch.get(i).body(), StandardCharsets.UTF_8);
                        if (body.startsWith("bad")) {
                            rejected.add(i);
                        } else {
                            done.add(body);
                        }
                    }
                    return BatchResult.deadLetterOnly(rejected.stream().mapToInt(Integer::intValue).toArray());
                }, Batching.of(8, Duration.ofMillis(50))), Optional.empty());

        for (int i = 0; i < 4; i++) {
            publish("cluster-a", "orders_a", i % 2 == 0 ? "bad-" + i : "a-" + i);
        }

        await().atMost(WAIT).until(() -> cluster("cluster-a").deadLetters("billing").size() == 2 && done.size() == 2);
        assertThat(cluster("cluster-a").deadLetters("billing")).extracting(m -> new String(m.body(), StandardCharsets.UTF_8))
                .containsExactlyInAnyOrder("bad-0", "bad-2");
        assertThat(done).containsExactlyInAnyOrder("a-1", "a-3");
    }

    @Test
    void aRetryWithABackOffIsCountedByItsPathAndKeepsItsLaneStressMarkAndTraceContext() throws Exception {
        List<ReceivedMessage> seen = new CopyOnWriteArrayList<>();
        List<io.lanemq.api.MessageContext> contexts = new CopyOnWriteArrayList<>();
        Subscription backingOff = Subscription.builder("orders", "billing")
                .retryBackoff(io.lanemq.api.RetryBackoff.fixed(Duration.ofSeconds(2))).build();
        closing.add(DualClusterConsumer.start(backingOff, message -> {
            seen.add(message);
            contexts.add(io.lanemq.api.MessageContext.current());
            return message.deliveryAttempt() < 2 ? ConsumeResult.RETRY_LATER : ConsumeResult.SUCCESS;
        }, config(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b", 1)), binding, metrics,
                new ProxyIdentity("app", Optional.empty()), Optional.empty(), Ticker.system(), c -> { }));
        Map<String, String> marks = Map.of(io.lanemq.api.MessageContext.LANE_PROPERTY, "A.X",
                io.lanemq.api.MessageContext.STRESS_TEST_PROPERTY, "true", "traceparent",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        cluster("cluster-a").publish(new PhysicalMessage("orders_a", "marked".getBytes(StandardCharsets.UTF_8),
                List.of("order-7"), Optional.empty(), marks, Optional.empty()));

        await().atMost(WAIT).until(() -> seen.size() == 2);
        assertThat(seen).extracting(ReceivedMessage::deliveryAttempt).containsExactly(1, 2);
        assertThat(seen).allSatisfy(m -> {
            assertThat(m.properties()).containsAllEntriesOf(marks);
            assertThat(m.keys()).containsExactly("order-7");
        });
        assertThat(contexts).as("the listener runs in the message's lane and stress mark at every attempt")
                .containsOnly(io.lanemq.api.MessageContext.none().withLane(io.lanemq.api.Lane.of("A.X")).withStressTest(true));
        assertThat(metrics.registry().get(SdkMetrics.RETRY_BACKOFFS).tag(SdkMetrics.TAG_PATH, "delay_level").counter().count())
                .as("DIRECT, unordered: kept by a delay level").isEqualTo(1.0);
    }

    @Test
    void aSubscriptionsOwnMaxDeliveryAttemptsDeadLettersSoonerThanTheGroupsPlatformSetting() throws Exception {
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        Subscription impatient = Subscription.builder("orders", "billing").maxDeliveryAttempts(2).build();
        closing.add(DualClusterConsumer.start(impatient, message -> {
            attempts.add(message.deliveryAttempt());
            return ConsumeResult.RETRY_LATER;
        }, config(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b", 1)), binding, metrics,
                new ProxyIdentity("app", Optional.empty()), Optional.empty(), Ticker.system(), c -> { }));

        publish("cluster-a", "orders_a", "poison");

        await().atMost(WAIT).until(() -> cluster("cluster-a").deadLetters("billing").size() == 1);
        assertThat(attempts).as("delivery attempts with the subscription's maxDeliveryAttempts 2 (platform: 3)")
                .containsExactly(1, 2);
    }

    @Test
    void aBatchListenerGetsTheMessagesBothClustersThreadsHoldAndAMessageItRetriesComesBackAlone() throws Exception {
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        List<String> done = new CopyOnWriteArrayList<>();
        List<Integer> poisonAttempts = new CopyOnWriteArrayList<>();
        start(config(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b", 1)),
                new GatheringListener(batch -> {
                    sizes.add(batch.size());
                    for (int i = 0; i < batch.size(); i++) {
                        ReceivedMessage message = batch.get(i);
                        String body = new String(message.body(), StandardCharsets.UTF_8);
                        if (body.equals("poison")) {
                            poisonAttempts.add(message.deliveryAttempt());
                            if (message.deliveryAttempt() == 1) {
                                return BatchResult.retryFrom(i);
                            }
                        }
                        done.add(body);
                    }
                    return BatchResult.success();
                }, Batching.of(8, Duration.ofMillis(50))), Optional.empty());

        for (int i = 0; i < 6; i++) {
            publish("cluster-a", "orders_a", i == 3 ? "poison" : "a-" + i);
            publish("cluster-b", "orders_b", "b-" + i);
        }

        await().atMost(WAIT).until(() -> done.contains("poison") && done.size() >= 12);
        assertThat(done).as("every message settled; a message after the poison in its batch may come twice")
                .containsAll(List.of("a-0", "a-1", "a-2", "a-4", "a-5", "b-0", "b-1", "b-2", "b-3", "b-4", "b-5", "poison"));
        assertThat(poisonAttempts).as("retried from its index: its second delivery is the broker's redelivery")
                .containsExactly(1, 2);
        assertThat(sizes).as("a batch holds at most what the 2 listener threads (one per cluster) hold at once")
                .allSatisfy(size -> assertThat(size).isBetween(1, 2));
        assertThat(sizes).as("both clusters' threads meet in one batch at least once").contains(2);
    }

    @Test
    void aReloadThatMovesOneClusterRestartsOnlyItsConsumerWhichResumesFromTheCommittedOffsets() throws Exception {
        PlatformConfig before = config(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b", 1));
        DualClusterConsumer consumer = start(before, recording, Optional.empty());
        for (int i = 0; i < 5; i++) {
            publish("cluster-b", "orders_b", "before-" + i);
        }
        await().atMost(WAIT).until(() -> received.size() == 5);

        PlatformConfig after = PlatformConfig.builder().cluster(clusterA())
                .cluster(new ClusterConfig("cluster-b", "idc-b", "10.1.0.2:9876", Map.of())).producer(PRODUCER)
                .topic(before.topic("orders").orElseThrow()).build();
        consumer.apply(before, after);
        for (int i = 0; i < 5; i++) {
            publish("cluster-b", "orders_b", "after-" + i);
        }

        await().atMost(WAIT).until(() -> received.size() >= 10);
        assertThat(received).extracting(m -> new String(m.body(), StandardCharsets.UTF_8)).as("each once, nothing lost")
                .hasSize(10).doesNotHaveDuplicates();
        assertThat(cluster("cluster-a").consumerSpecs()).as("consumers ever started on cluster-a").hasSize(1);
        assertThat(cluster("cluster-b").openConsumers()).singleElement()
                .satisfies(spec -> assertThat(spec.cluster().nameServerAddress()).isEqualTo("10.1.0.2:9876"));
    }

    @Test
    void aTopicMoveConsumesTheNewTopicAndTheOldOneUntilItIsDrained() throws Exception {
        PlatformConfig before = config(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b", 1));
        DualClusterConsumer consumer = start(before, recording, Optional.empty());
        cluster("cluster-b").silence(); // delivers nothing and cannot tell the backlog: a backlog builds, unknown
        publish("cluster-b", "orders_b", "left-behind");

        consumer.apply(before, config(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b2", 1)));
        publish("cluster-b", "orders_b2", "new");

        assertThat(cluster("cluster-b").openConsumers().stream().findFirst()).hasValueSatisfying(spec -> {
            assertThat(spec.topic()).isEqualTo("orders_b2");
            assertThat(spec.drainTopics()).containsExactly("orders_b");
        });
        cluster("cluster-b").recover();
        await().atMost(WAIT).until(() -> cluster("cluster-b").openConsumers().stream().allMatch(spec -> spec.drainTopics().isEmpty()));
        assertThat(received).extracting(m -> new String(m.body(), StandardCharsets.UTF_8)).as("nothing left behind")
                .containsExactlyInAnyOrder("left-behind", "new");
        assertThat(cluster("cluster-b").openConsumers().stream().findFirst()).hasValueSatisfying(spec -> assertThat(spec.drainTopics()).isEmpty());
    }

    @Test
    void eachClustersLagGaugeCountsWhatTheGroupHasNotCommittedThereIsUnknownWhenItCannotTellAndLeavesOnClose() throws Exception {
        CountDownLatch consuming = new CountDownLatch(1);
        closing.add(consuming::countDown); // before the consumer's close, which waits for the listener
        MessageListener held = message -> {
            try {
                consuming.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ConsumeResult.RETRY_LATER;
            }
            received.add(message);
            return ConsumeResult.SUCCESS;
        };
        DualClusterConsumer consumer = DualClusterConsumer.start(BILLING, held,
                config(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b", 1)), binding, metrics,
                new ProxyIdentity("app", Optional.empty()), Optional.empty(), Ticker.system(), LAG_EVERY, c -> { });
        closing.add(consumer);

        for (int i = 0; i < 5; i++) {
            publish("cluster-a", "orders_a", "held-" + i);
        }

        await().atMost(WAIT).until(() -> lag("cluster-a") == 5);
        await().atMost(WAIT).until(() -> lag("cluster-b") == 0);
        assertThat(received).as("the listener holds the first message: none is committed").isEmpty();
        consuming.countDown();
        await().atMost(WAIT).until(() -> lag("cluster-a") == 0);
        assertThat(received).hasSize(5);
        cluster("cluster-b").silence();
        await("a cluster that cannot tell").atMost(WAIT).until(() -> Double.isNaN(lag("cluster-b")));
        assertThat(lag("cluster-a")).isZero();

        consumer.close();
        assertThat(metrics.registry().find(SdkMetrics.CONSUMER_LAG).gauges()).as("gauges leave with the consumers").isEmpty();
    }

    /** The subscription's lag gauge on {@code cluster}; there must be exactly one. */
    private double lag(String cluster) {
        return metrics.registry().get(SdkMetrics.CONSUMER_LAG).tag(SdkMetrics.TAG_GROUP, "billing")
                .tag(SdkMetrics.TAG_CLUSTER, cluster).gauge().value();
    }

    @Test
    void theGroupsMemberTagsAreTheUnionOverClustersAndUnknownOnlyWhenNoClusterCanTell() throws Exception {
        PlatformConfig config = config(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b", 1));
        DualClusterConsumer first = start(config, recording, Optional.of("member-1"));
        start(config, recording, Optional.of("member-2"));

        assertThat(first.memberTags()).hasValueSatisfying(tags -> assertThat(tags).containsExactlyInAnyOrder("member-1", "member-2"));
        cluster("cluster-a").silence();
        assertThat(first.memberTags()).as("cluster-b still tells")
                .hasValueSatisfying(tags -> assertThat(tags).containsExactlyInAnyOrder("member-1", "member-2"));
        cluster("cluster-b").silence();
        assertThat(first.memberTags()).isEmpty();
    }

    @Test
    void aClusterThatCannotStartLeavesTheOthersConsumingAtOnceAndIsAttachedInTheBackgroundWhenItRecovers() throws Exception {
        cluster("cluster-b").stallStarts(Duration.ofSeconds(3));
        ClusterAttachments attachments = new ClusterAttachments(FAST_ATTACH, metrics, Ticker.system(), java.time.InstantSource.system());
        List<ClientHealth.Cluster> bySends = List.of(new ClientHealth.Cluster("cluster-b", "idc-b", ClientHealth.ClusterState.UNKNOWN,
                Optional.empty()));

        long begin = System.nanoTime();
        DualClusterConsumer consumer = DualClusterConsumer.start(BILLING, recording,
                config(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b", 1)), binding, metrics,
                new ProxyIdentity("app", Optional.empty()), Optional.empty(), Ticker.system(), c -> { }, attachments);
        closing.add(consumer);
        long startMillis = (System.nanoTime() - begin) / 1_000_000;

        assertThat(startMillis).as("the start waits for a stalled cluster's first answer no longer than the start wait")
                .isBetween(FAST_ATTACH.startWait().toMillis(), 2_000L);
        publish("cluster-a", "orders_a", "from a");
        await().atMost(WAIT).until(() -> received.size() == 1);
        assertThat(attachments.health(bySends).get(0).state()).as("down from the start: its first attempt has not answered")
                .isEqualTo(ClientHealth.ClusterState.DOWN);
        assertThat(attachments.health(bySends).get(0).reason()).hasValueSatisfying(reason -> assertThat(reason)
                .contains("consumer group 'billing' of logic topic orders").contains("has not answered within 500 ms"));
        await().atMost(WAIT).until(() -> attachments.health(bySends).get(0).reason().orElse("").contains("injected start failure"));

        cluster("cluster-b").recover();
        publish("cluster-b", "orders_b", "from b");

        await().atMost(WAIT).until(() -> received.size() == 2);
        assertThat(cluster("cluster-b").openConsumers()).hasSize(1);
        assertThat(attachments.health(bySends).get(0).state()).as("attached: up by its consumer").isEqualTo(ClientHealth.ClusterState.UP);
        assertThat(metrics.registry().get(SdkMetrics.CONSUMER_ATTACH_ATTEMPTS).tag(SdkMetrics.TAG_CLUSTER, "cluster-b")
                .tag(SdkMetrics.TAG_OUTCOME, "attached").counter().count()).isEqualTo(1);
    }

    @Test
    void attemptsOnAClusterThatStaysDownBackOffWithinTheBudget() throws Exception {
        cluster("cluster-b").failStarts();
        ClusterAttachments attachments = new ClusterAttachments(FAST_ATTACH, metrics, Ticker.system(), java.time.InstantSource.system());
        closing.add(DualClusterConsumer.start(BILLING, recording,
                config(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b", 1)), binding, metrics,
                new ProxyIdentity("app", Optional.empty()), Optional.empty(), Ticker.system(), c -> { }, attachments));
        long begin = System.nanoTime();
        int before = cluster("cluster-b").startAttempts();

        await().atMost(WAIT).until(() -> System.nanoTime() - begin > 1_000_000_000L);
        int attempts = cluster("cluster-b").startAttempts() - before;

        // Back-off 20, 40, 80, 160, 200, 200 ms...: about 8 in a second, never the budget's 50.
        assertThat(attempts).as("attempts on cluster-b in a second").isBetween(3, 12);
        assertThat(cluster("cluster-a").openConsumers()).hasSize(1);
    }

    @Test
    void aClusterThatRefusesIsRetriedSlowlyAndHoldsUpNeitherTheStartNorTheOthers() throws Exception {
        cluster("cluster-b").refuseStarts("NO_PERMISSION: wrong keys");
        ClusterAttachments attachments = new ClusterAttachments(FAST_ATTACH, metrics, Ticker.system(), java.time.InstantSource.system());
        closing.add(DualClusterConsumer.start(BILLING, recording,
                config(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b", 1)), binding, metrics,
                new ProxyIdentity("app", Optional.empty()), Optional.empty(), Ticker.system(), c -> { }, attachments));

        publish("cluster-a", "orders_a", "from a");
        await().atMost(WAIT).until(() -> received.size() == 1);
        assertThat(metrics.registry().get(SdkMetrics.CONSUMER_ATTACH_ATTEMPTS).tag(SdkMetrics.TAG_CLUSTER, "cluster-b")
                .tag(SdkMetrics.TAG_OUTCOME, "refused").counter().count()).as("one attempt: the next is 10 s away").isEqualTo(1);
    }

    @Test
    void withAClusterRequiredTheStartFailsNamingEachClusterWhenNoneAttachesInTime() {
        cluster("cluster-a").failStarts();
        cluster("cluster-b").failStarts();
        ClusterAttachments attachments = new ClusterAttachments(FAST_ATTACH.requiringClusterWithin(Optional.of(Duration.ofMillis(300))),
                metrics, Ticker.system(), java.time.InstantSource.system());

        assertThatThrownBy(() -> DualClusterConsumer.start(BILLING, recording,
                config(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b", 1)), binding, metrics,
                new ProxyIdentity("app", Optional.empty()), Optional.empty(), Ticker.system(), c -> { }, attachments))
                .isInstanceOf(MessagingException.class).hasMessageContaining("attached to no cluster within 300 ms")
                .hasMessageContaining("cluster-a: ").hasMessageContaining("cluster-b: ");
        assertThat(cluster("cluster-a").openConsumers()).isEmpty();
    }

    @Test
    void withoutARequirementASubscriptionStartsOnNoClusterAndAttachesTheFirstThatComes() throws Exception {
        cluster("cluster-a").failStarts();
        cluster("cluster-b").failStarts();
        ClusterAttachments attachments = new ClusterAttachments(FAST_ATTACH, metrics, Ticker.system(), java.time.InstantSource.system());
        closing.add(DualClusterConsumer.start(BILLING, recording,
                config(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b", 1)), binding, metrics,
                new ProxyIdentity("app", Optional.empty()), Optional.empty(), Ticker.system(), c -> { }, attachments));

        cluster("cluster-b").recover();
        publish("cluster-b", "orders_b", "from b");

        await().atMost(WAIT).until(() -> received.size() == 1);
        assertThat(cluster("cluster-a").openConsumers()).isEmpty();
    }

    @Test
    void aReloadThatDropsTheGroupIsAConflictNamingIt() throws Exception {
        PlatformConfig config = config(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b", 1));
        DualClusterConsumer consumer = start(config, recording, Optional.empty());
        PlatformConfig withoutGroup = PlatformConfig.builder().cluster(clusterA()).cluster(clusterB()).producer(PRODUCER)
                .topic(new LogicTopicConfig("orders", config.topic("orders").orElseThrow().routes(), Map.of("audit", SETTINGS)))
                .build();

        assertThat(consumer.conflicts(withoutGroup)).singleElement().asString()
                .contains("consumer group 'billing'").contains("not declared");
        assertThat(consumer.conflicts(config)).isEmpty();
        assertThatThrownBy(() -> start(withoutGroup, recording, Optional.empty())).isInstanceOf(UnknownTopicException.class);
    }

    @Test
    void closeStopsEveryClustersConsumerAndTellsTheOwner() throws Exception {
        List<AutoCloseable> closed = new CopyOnWriteArrayList<>();
        DualClusterConsumer consumer = DualClusterConsumer.start(BILLING, recording,
                config(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b", 1)), binding, metrics,
                new ProxyIdentity("app", Optional.empty()), Optional.empty(), Ticker.system(), closed::add);

        consumer.close();

        assertThat(cluster("cluster-a").openConsumers()).isEmpty();
        assertThat(cluster("cluster-b").openConsumers()).isEmpty();
        assertThat(closed).containsExactly(consumer);
    }

    @Test
    void aPausedSubscriptionTakesNothingFromEitherClusterAndAfterResumeGetsEveryMessageOnce() throws Exception {
        DualClusterConsumer consumer = start(config(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b", 1)),
                recording, Optional.empty());
        publish("cluster-a", "orders_a", "before-a");
        publish("cluster-b", "orders_b", "before-b");
        await().atMost(WAIT).until(() -> received.size() == 2);

        consumer.pause();
        assertThat(consumer.paused()).isTrue();
        for (int i = 0; i < 20; i++) {
            publish(i % 2 == 0 ? "cluster-a" : "cluster-b", i % 2 == 0 ? "orders_a" : "orders_b", "during-" + i);
        }
        await().during(Duration.ofMillis(500)).atMost(WAIT).until(() -> received.size() == 2);
        assertThat(cluster("cluster-a").backlog("billing", "orders_a") + cluster("cluster-b").backlog("billing", "orders_b"))
                .as("the messages sent during the pause wait on both clusters").isEqualTo(20);

        consumer.resume();
        assertThat(consumer.paused()).isFalse();
        await().atMost(WAIT).until(() -> received.size() == 22);
        assertThat(received).extracting(ReceivedMessage::messageId).as("each once").doesNotHaveDuplicates();
        assertThat(received).extracting(ReceivedMessage::deliveryAttempt).as("none redelivered").containsOnly(1);
        await().atMost(WAIT).until(() -> cluster("cluster-a").backlog("billing", "orders_a") == 0
                && cluster("cluster-b").backlog("billing", "orders_b") == 0);
    }

    @Test
    void aMessageTheListenerHoldsWhenThePauseComesFinishesAndIsCommittedNotRedelivered() throws Exception {
        CountDownLatch inListener = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        DualClusterConsumer consumer = start(config(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b", 1)),
                message -> {
                    received.add(message);
                    inListener.countDown();
                    try {
                        finish.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return ConsumeResult.SUCCESS;
                }, Optional.empty());
        publish("cluster-a", "orders_a", "slow");
        assertThat(inListener.await(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)).isTrue();

        consumer.pause();
        finish.countDown();

        await().atMost(WAIT).until(() -> cluster("cluster-a").backlog("billing", "orders_a") == 0);
        await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> received.size() == 1);
        assertThat(consumer.paused()).isTrue();
    }

    @Test
    void aConsumerRebuiltByAConfigurationChangeWhilePausedStartsPaused() throws Exception {
        PlatformConfig before = config(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b", 1));
        DualClusterConsumer consumer = start(before, recording, Optional.empty());
        consumer.pause();
        PlatformConfig after = PlatformConfig.builder().cluster(clusterA()).cluster(clusterB()).producer(PRODUCER)
                .topic(new LogicTopicConfig("orders", List.of(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b", 1)),
                        Map.of("billing", new ConsumerConfig(4, 3, StartPosition.EARLIEST)))).build();
        consumer.apply(before, after);
        assertThat(cluster("cluster-a").openConsumers()).singleElement()
                .satisfies(spec -> assertThat(spec.consumeThreads()).as("rebuilt with the new thread count").isEqualTo(2));

        publish("cluster-a", "orders_a", "during");
        publish("cluster-b", "orders_b", "during");
        await().during(Duration.ofMillis(500)).atMost(WAIT).until(received::isEmpty);

        consumer.resume();
        await().atMost(WAIT).until(() -> received.size() == 2);
    }

    @Test
    void closingAPausedSubscriptionDoesNotWaitForAResume() throws Exception {
        DualClusterConsumer consumer = start(config(route("cluster-a", "orders_a", 1), route("cluster-b", "orders_b", 1)),
                recording, Optional.empty());
        consumer.pause();
        publish("cluster-a", "orders_a", "during");

        long begin = System.nanoTime();
        consumer.close();

        assertThat(Duration.ofNanos(System.nanoTime() - begin)).as("close of a paused subscription").isLessThan(Duration.ofSeconds(5));
        assertThat(cluster("cluster-a").openConsumers()).isEmpty();
        // Not fetched, it waits for the group; fetched as the pause came, it was held and handed over by the close.
        assertThat(cluster("cluster-a").backlog("billing", "orders_a") + received.size()).as("the message is not lost")
                .isEqualTo(1);
        consumer.resume();
        assertThat(consumer.paused()).as("a closed consumer is not resumed").isTrue();
    }

    private DualClusterConsumer start(PlatformConfig config, MessageListener listener, Optional<String> memberTag)
            throws MessagingException {
        DualClusterConsumer consumer = DualClusterConsumer.start(BILLING, listener, config, binding, metrics,
                new ProxyIdentity("app", Optional.empty()), memberTag.map(tag -> new LaneMembership(tag, Optional.empty(), listener)),
                Ticker.system(), c -> { });
        closing.add(consumer);
        return consumer;
    }

    private void publish(String cluster, String topic, String body) {
        cluster(cluster).publish(new PhysicalMessage(topic, body.getBytes(StandardCharsets.UTF_8), List.of(), Optional.empty(),
                Map.of(), Optional.empty()));
    }

    private MemoryCluster cluster(String name) {
        return binding.cluster(name);
    }

    private static TopicRoute route(String cluster, String topic, int weight) {
        return new TopicRoute(cluster, topic, weight);
    }

    private static ClusterConfig clusterA() {
        return new ClusterConfig("cluster-a", "idc-a", "10.0.0.1:9876", Map.of());
    }

    private static ClusterConfig clusterB() {
        return new ClusterConfig("cluster-b", "idc-b", "10.1.0.1:9876", Map.of());
    }

    private static PlatformConfig config(TopicRoute... routes) throws Exception {
        return PlatformConfig.builder().cluster(clusterA()).cluster(clusterB()).producer(PRODUCER)
                .topic(new LogicTopicConfig("orders", List.of(routes), Map.of("billing", SETTINGS))).build();
    }
}
