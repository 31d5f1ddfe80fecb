package io.lanemq.core.internal.produce;

import static io.lanemq.core.internal.produce.ProducerFixture.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.Message;
import io.lanemq.api.MessagingException;
import io.lanemq.api.SendFailedException;
import io.lanemq.api.SendResult;
import io.lanemq.config.BatchConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.ProducerConfig;
import io.lanemq.config.TopicRoute;
import io.lanemq.core.internal.routing.ShardingKeysOnRoute;
import io.lanemq.testkit.memory.MemoryCluster;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The producer's own clock against clusters that answer, fail, or say nothing at all (a silent partition),
 * on an in-memory binding: no broker, milliseconds per case.
 */
class RoutingProducerFailoverTest {
    private static final Duration SEND_TIMEOUT = Duration.ofMillis(1500);
    private static final Duration FAILOVER_AFTER = Duration.ofMillis(200);
    /** Scheduling slack on a busy 2-core host; far below what a wait for the whole timeout would take. */
    private static final long SLACK_MILLIS = 400;

    private final ProducerFixture fixture = new ProducerFixture();

    @AfterEach
    void close() throws Exception {
        fixture.close();
    }

    @Test
    void syncSendersLeaveASilentClusterAfterFailoverAfterAndNoCallerWaitsLonger() throws Exception {
        RoutingProducer producer = producer();
        warm(producer, "cluster-b");
        cluster("cluster-b").silence();
        Senders senders = Senders.run(producer, 4, 100);

        assertThat(senders.results).hasSize(400).allMatch(r -> r.cluster().equals("cluster-a"));
        assertThat(senders.longestMillis()).as("longest send (ms)").isLessThan(FAILOVER_AFTER.toMillis() + SLACK_MILLIS);
        // Each unanswered attempt halves the silent cluster's weight: it is down after a handful, and 400 sends
        // at 50:50 would otherwise ask it about 200 times.
        assertThat(cluster("cluster-b").attempts()).as("attempts on the silent cluster").isBetween(1, 12);
    }

    @Test
    void aClusterThatAnswersNobodyWhileTheOtherAnswersCostsASenderAQuarterOfFailoverAfter() throws Exception {
        // A failoverAfter long enough that a quarter of it plus the slack stays below it: a sender that waited
        // out the whole failoverAfter on the silent cluster fails the assertion.
        Duration failoverAfter = Duration.ofMillis(4 * SLACK_MILLIS);
        RoutingProducer producer = fixture.producer(ProducerFixture.config(new ProducerConfig(Duration.ofSeconds(8), 1024, 1,
                failoverAfter), List.of(new TopicRoute("cluster-a", "orders", 50), new TopicRoute("cluster-b", "orders_b", 50))));
        // Its connection worked, then went quiet (as a partition does); a cluster that never answered is cold instead.
        warm(producer, "cluster-b");
        cluster("cluster-b").silence();

        Senders senders = Senders.run(producer, 8, 25);

        assertThat(senders.results).hasSize(200).allMatch(r -> r.cluster().equals("cluster-a"));
        assertThat(cluster("cluster-b").attempts()).as("attempts on the silent cluster").isPositive();
        assertThat(senders.longestMillis()).as("longest send (ms), failoverAfter %d ms", failoverAfter.toMillis())
                .isLessThan(failoverAfter.toMillis() / 4 + SLACK_MILLIS);
    }

    @Test
    void aColdClusterWhoseFirstAnswersAreSlowIsWaitedForNotDuplicated() throws Exception {
        // A cluster's first sends wait for its route and connection; the other already answers quickly. Giving up on
        // them stored copies of a healthy burst: 2,007 records for 2,000 sends at a quarter of failoverAfter, and a
        // restarted delay server delivered 34 twice at failoverAfter. So a cold cluster is waited for, like a stalled host.
        Duration failoverAfter = Duration.ofMillis(4 * SLACK_MILLIS);
        // No gathering: a send gathered behind the cold cluster's first request would be answered after two delays,
        // at the send's last chance (half the send timeout), and the test would measure that race instead.
        RoutingProducer producer = fixture.producer(ProducerFixture.config(new ProducerConfig(Duration.ofSeconds(8), 1024, 1,
                failoverAfter).withBatch(BatchConfig.OFF),
                List.of(new TopicRoute("cluster-a", "orders", 50), new TopicRoute("cluster-b", "orders_b", 50))));
        cluster("cluster-b").delaySends(failoverAfter.multipliedBy(5).dividedBy(4)); // past failoverAfter, within 4 s

        Senders senders = Senders.run(producer, 8, 1);

        assertThat(senders.results).hasSize(8);
        assertThat(senders.results).as("the cold cluster's sends were waited for, not moved").anyMatch(r -> r.cluster().equals("cluster-b"));
        long stored = cluster("cluster-a").stored("orders").size() + cluster("cluster-b").stored("orders_b").size();
        assertThat(stored).as("messages stored for 8 sends").isEqualTo(8);
    }

    @Test
    void theFirstSuccessWinsAndALateAnswerOfTheAbandonedAttemptChangesNothing() throws Exception {
        // Answered after the send gave up on it (at half the send timeout: nobody else answered quickly), before the deadline.
        cluster("cluster-b").delaySends(SEND_TIMEOUT.multipliedBy(2).dividedBy(3));
        List<TopicRoute> routes = List.of(new TopicRoute("cluster-b", "orders_b", 50), new TopicRoute("cluster-a", "orders", 50));
        RoutingProducer producer = producer(routes);

        SendResult sent = producer.send(onClusterB(routes)); // a key whose sticky route is cluster-b: tried first

        assertThat(sent.cluster()).isEqualTo("cluster-a");
        assertThat(sent.messageId()).as("the id cluster-a stored").isEqualTo(cluster("cluster-a").stored("orders").get(0).messageId());
        await().atMost(SEND_TIMEOUT).until(() -> cluster("cluster-b").stored("orders_b").size() == 1); // the late copy
        assertThat(sent.cluster()).as("after the late answer").isEqualTo("cluster-a");
        assertThat(cluster("cluster-b").stored("orders_b").get(0).messageId())
                .as("the late copy carries the id of the acknowledged one, so consumers can recognise it").isEqualTo(sent.messageId());
    }

    @Test
    void aSlowAnswerWhileNoOtherClusterAnswersQuicklyIsWaitedForNotDuplicated() throws Exception {
        // The whole host stalled: nothing says the slow cluster is the one at fault, so no second copy is sent.
        cluster("cluster-b").delaySends(FAILOVER_AFTER.multipliedBy(2));
        RoutingProducer producer = producer(List.of(new TopicRoute("cluster-b", "orders_b", 100),
                new TopicRoute("cluster-a", "orders", 0)));

        SendResult sent = producer.send(message());

        assertThat(sent.cluster()).isEqualTo("cluster-b");
        assertThat(cluster("cluster-a").attempts()).as("attempts on the other cluster").isZero();
    }

    @Test
    void aDrainedClusterIsNeverAskedEvenWhenTheOnlyWeightedClustersFirstAnswerComesLate() throws Exception {
        // A freshly started cluster's first answer, past the half send timeout a cold cluster is given before a send
        // moves on: with the other cluster drained (weight 0) there is nowhere to move, so it is waited for.
        cluster("cluster-b").delaySends(SEND_TIMEOUT.multipliedBy(2).dividedBy(3));
        RoutingProducer producer = producer(List.of(new TopicRoute("cluster-b", "orders_b", 100),
                new TopicRoute("cluster-a", "orders", 0)));

        SendResult sent = producer.send(message());

        assertThat(sent.cluster()).isEqualTo("cluster-b");
        assertThat(cluster("cluster-a").attempts()).as("attempts on the drained cluster").isZero();
        assertThat(cluster("cluster-b").stored("orders_b")).as("one copy").hasSize(1);
    }

    @Test
    void whenEveryClusterIsSilentTheSendFailsAtTheSendTimeoutNotOnePerCluster() throws Exception {
        cluster("cluster-a").silence();
        cluster("cluster-b").silence();
        RoutingProducer producer = producer();

        long start = System.nanoTime();
        assertThatThrownBy(() -> producer.send(message())).isInstanceOf(SendFailedException.class)
                .hasMessageContaining("no cluster answered within the send timeout of 1500 ms")
                .hasMessageContaining("[logicTopic=orders");
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertThat(millis).isBetween(SEND_TIMEOUT.toMillis() - 50, SEND_TIMEOUT.toMillis() + SLACK_MILLIS);
        assertThat(cluster("cluster-a").attempts() + cluster("cluster-b").attempts()).as("one attempt per cluster").isEqualTo(2);
    }

    @Test
    void aFailureAnswerMovesOnAtOnceAndAnAsyncSendFollowsTheSameClock() throws Exception {
        cluster("cluster-b").failSends();
        RoutingProducer producer = producer(List.of(new TopicRoute("cluster-b", "orders_b", 100),
                new TopicRoute("cluster-a", "orders", 1)));

        long start = System.nanoTime();
        SendResult sent = producer.sendAsync(message()).get();

        assertThat(sent.cluster()).isEqualTo("cluster-a");
        assertThat((System.nanoTime() - start) / 1_000_000).as("no wait for failoverAfter").isLessThan(FAILOVER_AFTER.toMillis());
    }

    @Test
    void aSendInFlightWhenTheProducerClosesStillEndsNamingTheClose() throws Exception {
        cluster("cluster-a").silence();
        cluster("cluster-b").silence();
        RoutingProducer producer = producer();
        CompletableFuture<SendResult> sending = producer.sendAsync(message());

        producer.close();

        assertThatThrownBy(() -> sending.get(SEND_TIMEOUT.toMillis() + SLACK_MILLIS, TimeUnit.MILLISECONDS))
                .hasCauseInstanceOf(SendFailedException.class)
                .hasMessageContaining("closed while this send was in flight");
    }

    /** Sends until {@code cluster} has answered one: its connection works from then on. */
    private void warm(RoutingProducer producer, String cluster) throws Exception {
        await().atMost(Duration.ofSeconds(5)).until(() -> producer.send(message()).cluster().equals(cluster));
    }

    /** A message whose sharding key routes it to cluster-b first; cluster-a, weighted too, takes the retry. */
    static Message onClusterB(List<TopicRoute> routes) {
        String key = ShardingKeysOnRoute.keyRoutedTo(new LogicTopicConfig(ProducerFixture.TOPIC, routes, Map.of()), "cluster-b");
        return Message.builder(ProducerFixture.TOPIC).shardingKey(key).body("x".getBytes(StandardCharsets.UTF_8)).build();
    }

    private RoutingProducer producer() throws Exception {
        return producer(List.of(new TopicRoute("cluster-a", "orders", 50), new TopicRoute("cluster-b", "orders_b", 50)));
    }

    private RoutingProducer producer(List<TopicRoute> routes) throws Exception {
        return fixture.producer(ProducerFixture.config(new ProducerConfig(SEND_TIMEOUT, 1024, 1, FAILOVER_AFTER), routes));
    }

    private MemoryCluster cluster(String name) {
        return fixture.binding.cluster(name);
    }

    /** Sync senders on their own threads, each sending {@code perThread} messages; every send's time is kept. */
    private record Senders(ConcurrentLinkedQueue<SendResult> results, List<Long> millis) {
        static Senders run(RoutingProducer producer, int threads, int perThread) throws InterruptedException {
            Senders senders = new Senders(new ConcurrentLinkedQueue<>(), new CopyOnWriteArrayList<>());
            List<Thread> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread thread = new Thread(() -> {
                    for (int i = 0; i < perThread; i++) {
                        long start = System.nanoTime();
                        try {
                            senders.results.add(producer.send(message()));
                        } catch (MessagingException e) {
                            throw new AssertionError(e);
                        } finally {
                            senders.millis.add((System.nanoTime() - start) / 1_000_000);
                        }
                    }
                });
                running.add(thread);
                thread.start();
            }
            for (Thread thread : running) {
                thread.join(30_000);
            }
            return senders;
        }

        long longestMillis() {
            return millis.stream().mapToLong(Long::longValue).max().orElseThrow();
        }
    }
}
