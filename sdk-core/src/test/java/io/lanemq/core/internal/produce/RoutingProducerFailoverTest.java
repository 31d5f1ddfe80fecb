package io.lanemq.core.internal.produce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.Message;
import io.lanemq.api.MessagingException;
import io.lanemq.api.SendFailedException;
import io.lanemq.api.SendResult;
import io.lanemq.api.spi.BoundConsumer;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.api.spi.BoundListener;
import io.lanemq.api.spi.BoundLocalTransaction;
import io.lanemq.api.spi.BoundProducer;
import io.lanemq.api.spi.BoundProducerSpec;
import io.lanemq.api.spi.BoundSendResult;
import io.lanemq.api.spi.MessagingBinding;
import io.lanemq.api.spi.PhysicalMessage;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigRef;
import io.lanemq.config.ProducerConfig;
import io.lanemq.config.TopicRoute;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.core.internal.routing.FailoverClusterChooser;
import io.lanemq.support.Ticker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
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

    private final ScriptedBinding binding = new ScriptedBinding();
    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
    }

    @Test
    void syncSendersLeaveASilentClusterAfterFailoverAfterAndNoCallerWaitsLonger() throws Exception {
        binding.behave("cluster-b", message -> new CompletableFuture<>()); // never answers
        RoutingProducer producer = producer();
        List<Long> millis = new CopyOnWriteArrayList<>();
        ConcurrentLinkedQueue<SendResult> results = new ConcurrentLinkedQueue<>();
        List<Thread> senders = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 100; i++) {
                    long start = System.nanoTime();
                    try {
                        results.add(producer.send(message()));
                    } catch (MessagingException e) {
                        throw new AssertionError(e);
                    } finally {
                        millis.add((System.nanoTime() - start) / 1_000_000);
                    }
                }
            });
            senders.add(thread);
            thread.start();
        }
        for (Thread thread : senders) {
            thread.join(30_000);
        }

        assertThat(results).hasSize(400).allMatch(r -> r.cluster().equals("cluster-a"));
        assertThat(millis.stream().mapToLong(Long::longValue).max().orElseThrow())
                .as("longest send (ms)").isLessThan(FAILOVER_AFTER.toMillis() + SLACK_MILLIS);
        // Each unanswered attempt halves the silent cluster's weight: it is down after a handful, and 400 sends
        // at 50:50 would otherwise ask it about 200 times.
        assertThat(binding.attempts("cluster-b")).as("attempts on the silent cluster").isBetween(1, 12);
    }

    @Test
    void theFirstSuccessWinsAndALateAnswerOfTheAbandonedAttemptChangesNothing() throws Exception {
        CompletableFuture<BoundSendResult> late = new CompletableFuture<>();
        binding.behave("cluster-b", message -> late);
        binding.behave("cluster-a", message -> CompletableFuture.completedFuture(
                new BoundSendResult("id-a", message.topic(), "broker-a", 0, 1)));
        RoutingProducer producer = producer(List.of(new TopicRoute("cluster-b", "orders_b", 100),
                new TopicRoute("cluster-a", "orders", 0)));

        SendResult sent = producer.send(message());
        late.complete(new BoundSendResult("id-b", "orders_b", "broker-b", 0, 1));

        assertThat(sent.cluster()).isEqualTo("cluster-a");
        assertThat(sent.messageId()).isEqualTo("id-a");
    }

    @Test
    void aSlowAnswerWhileNoOtherClusterAnswersQuicklyIsWaitedForNotDuplicated() throws Exception {
        // The whole host stalled: nothing says the slow cluster is the one at fault, so no second copy is sent.
        binding.behave("cluster-b", message -> CompletableFuture.supplyAsync(
                () -> new BoundSendResult("id-b", message.topic(), "broker-b", 0, 1),
                CompletableFuture.delayedExecutor(FAILOVER_AFTER.toMillis() * 2, TimeUnit.MILLISECONDS)));
        RoutingProducer producer = producer(List.of(new TopicRoute("cluster-b", "orders_b", 100),
                new TopicRoute("cluster-a", "orders", 0)));

        SendResult sent = producer.send(message());

        assertThat(sent.cluster()).isEqualTo("cluster-b");
        assertThat(binding.attempts("cluster-a")).as("attempts on the other cluster").isZero();
    }

    @Test
    void whenEveryClusterIsSilentTheSendFailsAtTheSendTimeoutNotOnePerCluster() throws Exception {
        binding.behave("cluster-a", message -> new CompletableFuture<>());
        binding.behave("cluster-b", message -> new CompletableFuture<>());
        RoutingProducer producer = producer();

        long start = System.nanoTime();
        assertThatThrownBy(() -> producer.send(message())).isInstanceOf(SendFailedException.class)
                .hasMessageContaining("no cluster answered within the send timeout of 1500 ms")
                .hasMessageContaining("[logicTopic=orders");
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertThat(millis).isBetween(SEND_TIMEOUT.toMillis() - 50, SEND_TIMEOUT.toMillis() + SLACK_MILLIS);
        assertThat(binding.attempts("cluster-a") + binding.attempts("cluster-b")).as("one attempt per cluster").isEqualTo(2);
    }

    @Test
    void aFailureAnswerMovesOnAtOnceAndAnAsyncSendFollowsTheSameClock() throws Exception {
        binding.behave("cluster-b", message -> CompletableFuture.failedFuture(
                new SendFailedException("broker busy", null, "cluster-b", null)));
        RoutingProducer producer = producer(List.of(new TopicRoute("cluster-b", "orders_b", 100),
                new TopicRoute("cluster-a", "orders", 1)));

        long start = System.nanoTime();
        SendResult sent = producer.sendAsync(message()).get();

        assertThat(sent.cluster()).isEqualTo("cluster-a");
        assertThat((System.nanoTime() - start) / 1_000_000).as("no wait for failoverAfter").isLessThan(FAILOVER_AFTER.toMillis());
    }

    @Test
    void aSendInFlightWhenTheProducerClosesStillEndsNamingTheClose() throws Exception {
        binding.behave("cluster-a", message -> new CompletableFuture<>());
        binding.behave("cluster-b", message -> new CompletableFuture<>());
        RoutingProducer producer = producer();
        CompletableFuture<SendResult> sending = producer.sendAsync(message());

        producer.close();

        assertThatThrownBy(() -> sending.get(SEND_TIMEOUT.toMillis() + SLACK_MILLIS, TimeUnit.MILLISECONDS))
                .hasCauseInstanceOf(SendFailedException.class)
                .hasMessageContaining("closed while this send was in flight");
    }

    private RoutingProducer producer() throws Exception {
        return producer(List.of(new TopicRoute("cluster-a", "orders", 50), new TopicRoute("cluster-b", "orders_b", 50)));
    }

    private RoutingProducer producer(List<TopicRoute> routes) throws Exception {
        PlatformConfig config = PlatformConfig.builder()
                .cluster(new ClusterConfig("cluster-a", "idc-a", "127.0.0.1:1", Map.of()))
                .cluster(new ClusterConfig("cluster-b", "idc-b", "127.0.0.1:2", Map.of()))
                .producer(new ProducerConfig(SEND_TIMEOUT, 1024, 1, FAILOVER_AFTER))
                .topic(new LogicTopicConfig("orders", routes, Map.of()))
                .build();
        PlatformConfigRef ref = new PlatformConfigRef(config);
        SdkMetrics metrics = new SdkMetrics(new SimpleMeterRegistry(), "test");
        FailoverClusterChooser chooser = new FailoverClusterChooser(ref, metrics, Ticker.system(), "test");
        ClusterProducers clusters = new ClusterProducers("group", Optional.empty(), ref, binding);
        RoutingProducer producer = new RoutingProducer("group", Optional.empty(), ref, chooser, clusters, metrics,
                new TopicRateLimits(), new ContextStamp(Optional.empty()), closed -> { }, Ticker.system(), InstantSource.system());
        closing.add(producer);
        closing.add(chooser);
        return producer;
    }

    private static Message message() {
        return Message.builder("orders").body("x".getBytes(StandardCharsets.UTF_8)).build();
    }

    /** Per cluster, what its producer answers to an async send; clusters not scripted answer at once. */
    private static final class ScriptedBinding implements MessagingBinding {
        private final Map<String, Function<PhysicalMessage, CompletableFuture<BoundSendResult>>> behaviour =
                new ConcurrentHashMap<>();
        private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
        private final AtomicLong ids = new AtomicLong();

        void behave(String cluster, Function<PhysicalMessage, CompletableFuture<BoundSendResult>> answer) {
            behaviour.put(cluster, answer);
        }

        int attempts(String cluster) {
            AtomicInteger n = attempts.get(cluster);
            return n == null ? 0 : n.get();
        }

        @Override
        public String name() {
            return "scripted";
        }

        @Override
        public BoundProducer createProducer(BoundProducerSpec spec) {
            String cluster = spec.cluster().clusterName();
            return new BoundProducer() {
                @Override
                public BoundSendResult send(PhysicalMessage message) {
                    throw new UnsupportedOperationException("sync sends go through sendAsync");
                }

                @Override
                public CompletableFuture<BoundSendResult> sendAsync(PhysicalMessage message) {
                    attempts.computeIfAbsent(cluster, c -> new AtomicInteger()).incrementAndGet();
                    return behaviour.getOrDefault(cluster, m -> CompletableFuture.completedFuture(
                            new BoundSendResult(cluster + "-" + ids.incrementAndGet(), m.topic(), cluster, 0, 0))).apply(message);
                }

                @Override
                public BoundSendResult sendInTransaction(PhysicalMessage message, BoundLocalTransaction transaction) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public byte[] request(PhysicalMessage message, Duration timeout) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public BoundConsumer createConsumer(BoundConsumerSpec spec, BoundListener listener) {
            throw new UnsupportedOperationException();
        }
    }
}
