package io.lanemq.core.internal.produce;

import static io.lanemq.core.internal.produce.ProducerFixture.TOPIC;
import static io.lanemq.core.internal.produce.ProducerFixture.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.lanemq.api.CancelOutcome;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.InvalidMessageException;
import io.lanemq.api.LocalTransaction;
import io.lanemq.api.Message;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.SendFailedException;
import io.lanemq.api.SendResult;
import io.lanemq.api.TransactionChecker;
import io.lanemq.api.TransactionResolution;
import io.lanemq.api.UnknownTopicException;
import io.lanemq.config.DelayConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.ProducerConfig;
import io.lanemq.config.TopicRoute;
import io.lanemq.core.delay.DelayProtocol;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.testkit.memory.MemoryCluster;
import io.lanemq.testkit.memory.SendRecord;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The producer's decisions besides its clock (RoutingProducerFailoverTest): transactions, refusals, rate limits, cancels. */
class RoutingProducerTest {
    private static final ProducerConfig SETTINGS = new ProducerConfig(Duration.ofMillis(1500), 1024, 1, Duration.ofMillis(200));
    /** cluster-b takes every send; cluster-a, weight 0, is drained: no send, no retry. */
    private static final List<TopicRoute> B_FIRST = List.of(new TopicRoute("cluster-b", "orders_b", 100),
            new TopicRoute("cluster-a", "orders_a", 0));

    private final ProducerFixture fixture = new ProducerFixture();
    private final List<ReceivedMessage> checked = new CopyOnWriteArrayList<>();
    private final TransactionChecker commitOnCheck = message -> {
        checked.add(message);
        return TransactionResolution.COMMIT;
    };

    @AfterEach
    void close() throws Exception {
        fixture.close();
    }

    @Test
    void aTransactionWhosePreparedSendFailedRunsItsLocalTransactionOnceOnTheNextCluster() throws Exception {
        cluster("cluster-b").failSends();
        List<TopicRoute> bothWeighted = List.of(new TopicRoute("cluster-b", "orders_b", 50), new TopicRoute("cluster-a", "orders_a", 50));
        RoutingProducer producer = transactional(bothWeighted);
        AtomicInteger localRuns = new AtomicInteger();

        SendResult sent = producer.sendInTransaction(RoutingProducerFailoverTest.onClusterB(bothWeighted), committing(localRuns));

        assertThat(sent.cluster()).isEqualTo("cluster-a");
        assertThat(localRuns).as("local transaction runs").hasValue(1);
        assertThat(cluster("cluster-a").stored("orders_a")).extracting(m -> m.messageId()).containsExactly(sent.messageId());
        assertThat(cluster("cluster-b").sends()).extracting(SendRecord::kind, SendRecord::outcome)
                .containsExactly(tuple(SendRecord.Kind.TRANSACTION, SendRecord.Outcome.FAILED));
    }

    @Test
    void aDrainedClusterTakesNoRetryAndTheSendFailsNamingTheClusterTried() throws Exception {
        cluster("cluster-b").failSends();
        RoutingProducer producer = fixture.producer(ProducerFixture.config(SETTINGS, B_FIRST));

        assertThatThrownBy(() -> producer.send(message())).isInstanceOf(SendFailedException.class)
                .hasMessageContaining("cluster=cluster-b");
        assertThat(cluster("cluster-a").attempts()).as("attempts on the weight-0 cluster").isZero();
    }

    @Test
    void onceTheLocalTransactionRanAFailureIsNotRetriedAndTheBrokersCheckBackSettlesIt() throws Exception {
        cluster("cluster-b").failTransactionEnds();
        RoutingProducer producer = transactional(B_FIRST);
        AtomicInteger localRuns = new AtomicInteger();

        assertThatThrownBy(() -> producer.sendInTransaction(message(), committing(localRuns)))
                .isInstanceOf(SendFailedException.class).hasMessageContaining("cluster=cluster-b");

        assertThat(localRuns).as("a retry elsewhere could commit the business change twice").hasValue(1);
        assertThat(cluster("cluster-a").attempts()).as("attempts on the other cluster").isZero();
        assertThat(cluster("cluster-b").preparedMessages()).hasSize(1);

        assertThat(cluster("cluster-b").checkBack()).containsValue(TransactionResolution.COMMIT);
        assertThat(checked).singleElement().satisfies(m -> {
            assertThat(m.logicTopic()).as("the checker is told the logic topic, not orders_b").isEqualTo(TOPIC);
            assertThat(m.cluster()).isEqualTo("cluster-b");
        });
        assertThat(cluster("cluster-b").stored("orders_b")).hasSize(1);
    }

    @Test
    void aLocalTransactionThatThrowsLeavesTheMessagePreparedForTheChecker() throws Exception {
        RoutingProducer producer = transactional(B_FIRST);

        producer.sendInTransaction(message(), prepared -> {
            throw new IllegalStateException("database down");
        });

        assertThat(cluster("cluster-b").stored("orders_b")).as("not committed").isEmpty();
        assertThat(cluster("cluster-b").preparedMessages()).hasSize(1);
        assertThat(cluster("cluster-a").attempts()).isZero();
    }

    @Test
    void transactionsNeedACheckerAndNoDelay() throws Exception {
        RoutingProducer plain = fixture.producer(ProducerFixture.config(SETTINGS, B_FIRST));
        RoutingProducer transactional = transactional(B_FIRST);
        Message delayed = Message.builder(TOPIC).body(new byte[] {1}).deliverAfter(Duration.ofMinutes(1)).build();

        assertThatThrownBy(() -> plain.sendInTransaction(message(), committing(new AtomicInteger())))
                .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("transactionChecker");
        assertThatThrownBy(() -> transactional.sendInTransaction(delayed, committing(new AtomicInteger())))
                .isInstanceOf(InvalidMessageException.class).hasMessageContaining("cannot be sent in a transaction");
        assertThat(cluster("cluster-a").attempts() + cluster("cluster-b").attempts()).as("sends reaching a cluster").isZero();
    }

    @Test
    void aMessageTheClusterRefusesIsNotRetriedElsewhere() throws Exception {
        cluster("cluster-b").refuseSends("body rejected by the broker");
        RoutingProducer producer = fixture.producer(ProducerFixture.config(SETTINGS, B_FIRST));

        assertThatThrownBy(() -> producer.send(message())).isInstanceOf(InvalidMessageException.class)
                .hasMessageContaining("body rejected by the broker").hasMessageContaining("cluster-b");
        assertThat(cluster("cluster-a").attempts()).as("attempts on the other cluster").isZero();
    }

    @Test
    void withNoRetriesConfiguredAFailedSendIsNotTriedOnAnotherCluster() throws Exception {
        cluster("cluster-b").failSends();
        RoutingProducer producer = fixture.producer(ProducerFixture.config(
                new ProducerConfig(SETTINGS.sendTimeout(), 1024, 0, SETTINGS.failoverAfter()), B_FIRST));

        assertThatThrownBy(() -> producer.send(message())).isInstanceOf(SendFailedException.class)
                .hasMessageContaining("cluster=cluster-b");
        assertThat(cluster("cluster-a").attempts()).as("producer.retries 0").isZero();
    }

    @Test
    void anUnknownLogicTopicIsRefusedBeforeAnyClusterIsAsked() throws Exception {
        RoutingProducer producer = fixture.producer(ProducerFixture.config(SETTINGS, B_FIRST));

        assertThatThrownBy(() -> producer.send(Message.builder("refunds").body(new byte[] {1}).build()))
                .isInstanceOf(UnknownTopicException.class).hasMessageContaining("refunds");
        assertThat(rejected("refunds", "UnknownTopicException")).isEqualTo(1.0);
        assertThat(cluster("cluster-a").attempts() + cluster("cluster-b").attempts()).isZero();
    }

    @Test
    void aSendOverTheRateLimitThatCannotWaitWithinTheSendTimeoutIsRefusedAndNothingIsSent() throws Exception {
        ProducerConfig shortTimeout = new ProducerConfig(Duration.ofMillis(200), 1024, 1, Duration.ofMillis(100));
        RoutingProducer producer = fixture.producer(limited(shortTimeout, 1));

        producer.send(message());
        assertThatThrownBy(() -> producer.send(message())).isInstanceOf(SendFailedException.class)
                .hasMessageContaining("rate limit of 1 sends/s reached").hasMessageContaining("nothing was sent");

        assertThat(cluster("cluster-a").attempts() + cluster("cluster-b").attempts()).as("sends reaching a cluster").isEqualTo(1);
        assertThat(rejected(TOPIC, "RateLimited")).isEqualTo(1.0);
    }

    @Test
    void aThrottledAsyncSendStartsWhenItsPermitIsDueWithoutBlockingTheCaller() throws Exception {
        RoutingProducer producer = fixture.producer(limited(SETTINGS, 1));
        producer.send(message());

        long start = System.nanoTime();
        CompletableFuture<SendResult> throttled = producer.sendAsync(message());
        long returnedMillis = (System.nanoTime() - start) / 1_000_000;
        boolean doneAtOnce = throttled.isDone();
        throttled.get(SETTINGS.sendTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
        long sentMillis = (System.nanoTime() - start) / 1_000_000;

        assertThat(doneAtOnce).as("completed before its permit (1/s) was due").isFalse();
        assertThat(returnedMillis).as("caller blocked (ms)").isLessThan(200);
        assertThat(sentMillis).as("waited for the next second's permit (ms)").isGreaterThanOrEqualTo(500);
        assertThat(cluster("cluster-a").attempts() + cluster("cluster-b").attempts()).isEqualTo(2);
    }

    @Test
    void aDelayedMessageGoesToTheDelayTopicAndItsTicketNamesTheClusterThatStoredIt() throws Exception {
        RoutingProducer producer = fixture.producer(ProducerFixture.config(SETTINGS, B_FIRST));

        SendResult sent = producer.send(Message.builder(TOPIC).body(new byte[] {1}).deliverAfter(Duration.ofMinutes(1)).build());

        assertThat(sent.delayId()).hasValueSatisfying(ticket -> assertThat(ticket).endsWith("@cluster-b"));
        assertThat(cluster("cluster-b").stored(DelayConfig.DEFAULTS.internalTopic())).hasSize(1);
        assertThat(cluster("cluster-b").stored("orders_b")).as("not on the topic before it is due").isEmpty();
    }

    @Test
    void aCancelAsksTheClusterOfItsTicketAndReadsTheDelayServersAnswer() throws Exception {
        String delayTopic = DelayConfig.DEFAULTS.internalTopic();
        RoutingProducer producer = fixture.producer(ProducerFixture.config(SETTINGS, B_FIRST));
        String id = DelayProtocol.newId(System.currentTimeMillis() + 60_000);
        cluster("cluster-a").respond(delayTopic, request -> "CANCELLED".getBytes(StandardCharsets.UTF_8));
        cluster("cluster-b").respond(delayTopic, request -> "MAYBE".getBytes(StandardCharsets.UTF_8));

        assertThat(producer.cancelDelayed(id + "@cluster-a")).isEqualTo(CancelOutcome.CANCELLED);
        assertThat(cluster("cluster-a").sends()).singleElement()
                .satisfies(r -> assertThat(r.kind()).isEqualTo(SendRecord.Kind.REQUEST));
        assertThatThrownBy(() -> producer.cancelDelayed(id + "@cluster-b")).isInstanceOf(SendFailedException.class)
                .hasMessageContaining("answered the cancel of " + id + "@cluster-b with 'MAYBE'");
        assertThatThrownBy(() -> producer.cancelDelayed(id + "@cluster-z")).isInstanceOf(InvalidMessageException.class)
                .hasMessageContaining("names cluster 'cluster-z'");
    }

    @Test
    void aClosedProducerRefusesSendsAndCancelsWithoutAskingAnyCluster() throws Exception {
        RoutingProducer producer = fixture.producer(ProducerFixture.config(SETTINGS, B_FIRST));
        producer.close();

        assertThatThrownBy(() -> producer.send(message())).isInstanceOf(SendFailedException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> producer.sendAsync(message()).join()).hasCauseInstanceOf(SendFailedException.class);
        assertThatThrownBy(() -> producer.cancelDelayed("x@cluster-a")).hasMessageContaining("producer is closed");
        assertThat(cluster("cluster-a").openProducers()).as("its cluster producers closed too").isEmpty();
        assertThat(cluster("cluster-a").attempts() + cluster("cluster-b").attempts()).isZero();
    }

    private RoutingProducer transactional(List<TopicRoute> routes) throws Exception {
        return fixture.producer(ProducerFixture.config(SETTINGS, routes), Optional.of(commitOnCheck));
    }

    private static PlatformConfig limited(ProducerConfig settings, int perSecond) throws Exception {
        return ProducerFixture.twoClusters(settings)
                .topic(new LogicTopicConfig(TOPIC, B_FIRST, Map.of()).withRateLimit(perSecond)).build();
    }

    private static LocalTransaction committing(AtomicInteger runs) {
        return prepared -> {
            runs.incrementAndGet();
            return TransactionResolution.COMMIT;
        };
    }

    private double rejected(String logicTopic, String reason) {
        return fixture.registry.get(SdkMetrics.SENDS_REJECTED).tag(SdkMetrics.TAG_LOGIC_TOPIC, logicTopic)
                .tag(SdkMetrics.TAG_REASON, reason).counter().count();
    }

    private MemoryCluster cluster(String name) {
        return fixture.binding.cluster(name);
    }
}
