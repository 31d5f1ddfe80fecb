package io.lanemq.core.internal.consume.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Deduplication;
import io.lanemq.api.MessageListener;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.Subscription;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.TopicRoute;
import io.lanemq.core.internal.consume.listener.DeliveredMessage;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.FakeClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Copies dropped, failures retried, the window timed on a fake clock. */
class DeduplicatingListenerTest {
    private final FakeClock clock = new FakeClock();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final SdkMetrics metrics = new SdkMetrics(registry, "test");
    private final List<String> processed = new ArrayList<>();

    @Test
    void aCopyOfAMessageProcessedWithinTheWindowIsAcknowledgedWithoutTheListener() {
        MessageListener listener = wrap(Deduplication.byMessageId(Duration.ofMinutes(10)), m -> ConsumeResult.SUCCESS);

        assertThat(listener.consume(message("id-1", "cluster-a"))).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(listener.consume(message("id-1", "cluster-b"))).as("the other cluster's copy").isEqualTo(ConsumeResult.SUCCESS);
        assertThat(listener.consume(message("id-2", "cluster-a"))).isEqualTo(ConsumeResult.SUCCESS);

        assertThat(processed).containsExactly("id-1@cluster-a", "id-2@cluster-a");
        assertThat(dropped()).isEqualTo(1);
    }

    @Test
    void aReplayedCopyIsTheMessageWhoseIdItCarries() {
        MessageListener listener = wrap(Deduplication.byMessageId(Duration.ofMinutes(10)), m -> ConsumeResult.SUCCESS);

        assertThat(listener.consume(replay("replay-1", "id-1"))).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(listener.consume(replay("replay-2", "id-1"))).as("a second replay of id-1").isEqualTo(ConsumeResult.SUCCESS);
        assertThat(listener.consume(message("id-1", "cluster-a"))).as("the original, redelivered").isEqualTo(ConsumeResult.SUCCESS);

        assertThat(processed).as("only the first replay reached the listener").containsExactly("replay-1@cluster-a");
        assertThat(dropped()).isEqualTo(2);
    }

    @Test
    void aFailedFirstAttemptIsNotRememberedSoItsRetryRunsTheListener() {
        List<ConsumeResult> answers = new ArrayList<>(List.of(ConsumeResult.RETRY_LATER, ConsumeResult.SUCCESS));
        MessageListener listener = wrap(Deduplication.byMessageId(Duration.ofMinutes(10)), m -> answers.remove(0));

        assertThat(listener.consume(message("id-1", "cluster-a"))).isEqualTo(ConsumeResult.RETRY_LATER);
        assertThat(listener.consume(message("id-1", "cluster-a"))).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(listener.consume(message("id-1", "cluster-b"))).isEqualTo(ConsumeResult.SUCCESS);

        assertThat(processed).as("the retry ran, the later copy did not").hasSize(2);
        assertThat(dropped()).isEqualTo(1);
    }

    @Test
    void aListenerThatThrowsReleasesTheIdentityAndTheExceptionGoesOn() {
        MessageListener listener = wrap(Deduplication.byMessageId(Duration.ofMinutes(10)), m -> {
            throw new IllegalStateException("database down");
        });

        assertThatThrownBy(() -> listener.consume(message("id-1", "cluster-a"))).hasMessage("database down");
        assertThatThrownBy(() -> listener.consume(message("id-1", "cluster-a"))).as("the retry reaches the listener")
                .hasMessage("database down");
        assertThat(dropped()).isZero();
    }

    @Test
    void aCopyArrivingWhileTheFirstIsStillProcessedIsRetriedLater() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        MessageListener listener = wrap(Deduplication.byMessageId(Duration.ofMinutes(10)), m -> {
            inside.countDown();
            await(release);
            return ConsumeResult.SUCCESS;
        });
        Thread first = new Thread(() -> listener.consume(message("id-1", "cluster-a")), "first-copy");
        first.start();
        inside.await();

        assertThat(listener.consume(message("id-1", "cluster-b"))).as("undecided yet").isEqualTo(ConsumeResult.RETRY_LATER);
        release.countDown();
        first.join();
        assertThat(listener.consume(message("id-1", "cluster-b"))).as("its retry, once the first succeeded")
                .isEqualTo(ConsumeResult.SUCCESS);
        assertThat(processed).containsExactly("id-1@cluster-a");
        assertThat(dropped()).isEqualTo(1);
    }

    @Test
    void anIdentityIsForgottenWhenItsWindowHasPassed() {
        MessageListener listener = wrap(Deduplication.byMessageId(Duration.ofMinutes(10)), m -> ConsumeResult.SUCCESS);
        listener.consume(message("id-1", "cluster-a"));

        clock.advance(Duration.ofMinutes(10).minusMillis(1));
        listener.consume(message("id-1", "cluster-b"));
        assertThat(processed).as("within the window").hasSize(1);

        clock.advance(Duration.ofMinutes(10));
        listener.consume(message("id-1", "cluster-b"));
        assertThat(processed).as("after it").hasSize(2);
    }

    @Test
    void byFirstKeyTwoMessagesOfOneBusinessEventAreOneAndMessagesWithoutAKeyAreAllProcessed() {
        MessageListener listener = wrap(Deduplication.byFirstKey(Duration.ofMinutes(10)), m -> ConsumeResult.SUCCESS);

        listener.consume(message("id-1", "cluster-a", "order-42"));
        listener.consume(message("id-2", "cluster-a", "order-42"));
        listener.consume(message("id-3", "cluster-a"));
        listener.consume(message("id-3", "cluster-a"));

        assertThat(processed).containsExactly("id-1@cluster-a", "id-3@cluster-a", "id-3@cluster-a");
    }

    @Test
    void aSubscriptionWithoutDeduplicationGetsItsOwnListener() {
        MessageListener own = m -> ConsumeResult.SUCCESS;
        assertThat(DeduplicatingListener.wrap(Subscription.builder("orders", "billing").build(), own, metrics, clock))
                .isSameAs(own);
    }

    @Test
    void aGroupsDeduplicationInThePlatformConfigurationAppliesUnlessTheSubscriptionSetsItsOwn() throws Exception {
        PlatformConfig config = PlatformConfig.builder()
                .cluster(new ClusterConfig("cluster-a", "idc-a", "127.0.0.1:9876", Map.of()))
                .topic(new LogicTopicConfig("orders", List.of(new TopicRoute("cluster-a", "orders_a", 1)), Map.of("billing",
                        ConsumerConfig.DEFAULTS.withDeduplication(Duration.ofMinutes(10), Deduplication.Identity.FIRST_KEY))))
                .build();
        MessageListener byGroup = DeduplicatingListener.wrap(Subscription.builder("orders", "billing").build(), config,
                recording(), metrics, clock);
        MessageListener bySubscription = DeduplicatingListener.wrap(Subscription.builder("orders", "billing")
                .deduplicate(Deduplication.byMessageId(Duration.ofMinutes(10))).build(), config, recording(), metrics, clock);

        byGroup.consume(message("id-1", "cluster-a", "order-42"));
        byGroup.consume(message("id-2", "cluster-a", "order-42"));
        bySubscription.consume(message("id-3", "cluster-a", "order-43"));
        bySubscription.consume(message("id-4", "cluster-a", "order-43"));

        assertThat(processed).as("the group's first-key window dropped id-2; the subscription's own (by id) kept id-4")
                .containsExactly("id-1@cluster-a", "id-3@cluster-a", "id-4@cluster-a");
        MessageListener own = m -> ConsumeResult.SUCCESS;
        assertThat(DeduplicatingListener.wrap(Subscription.builder("orders", "audit").build(), config, own, metrics, clock))
                .as("a group without it, or one the configuration does not know, gets its own listener").isSameAs(own);
    }

    private MessageListener recording() {
        return message -> {
            processed.add(message.messageId() + "@" + message.cluster());
            return ConsumeResult.SUCCESS;
        };
    }

    @Test
    void settingsAreCheckedAsTheyAreGiven() {
        assertThatThrownBy(() -> Deduplication.byMessageId(Duration.ZERO)).hasMessageContaining("window must be positive");
        assertThatThrownBy(() -> Deduplication.byMessageId(Duration.ofMinutes(1)).withMaxEntries(0))
                .hasMessageContaining("maxEntries must be at least 1, was 0");
    }

    private MessageListener wrap(Deduplication settings, Function<ReceivedMessage, ConsumeResult> answer) {
        Subscription subscription = Subscription.builder("orders", "billing").deduplicate(settings).build();
        return DeduplicatingListener.wrap(subscription, message -> {
            processed.add(message.messageId() + "@" + message.cluster());
            return answer.apply(message);
        }, metrics, clock);
    }

    private double dropped() {
        return registry.get(SdkMetrics.DUPLICATES_DROPPED).tag(SdkMetrics.TAG_GROUP, "billing").counter().count();
    }

    private static ReceivedMessage message(String id, String cluster, String... keys) {
        BoundMessage bound = new BoundMessage(id, "orders_" + cluster, "body".getBytes(StandardCharsets.UTF_8), List.of(keys),
                Optional.empty(), Map.of(), Optional.empty(), "broker-0", 0, 0L, 1, 0L);
        return new DeliveredMessage("orders", cluster, bound);
    }

    private static ReceivedMessage replay(String id, String originalId) {
        BoundMessage bound = new BoundMessage(id, "orders_cluster-a", "body".getBytes(StandardCharsets.UTF_8), List.of(),
                Optional.empty(), Map.of(Deduplication.ORIGINAL_MESSAGE_ID_PROPERTY, originalId), Optional.empty(), "broker-0",
                0, 0L, 1, 0L);
        return new DeliveredMessage("orders", "cluster-a", bound);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
