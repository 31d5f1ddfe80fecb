package io.lanemq.dedup.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Deduplication;
import io.lanemq.api.DeduplicationStore;
import io.lanemq.api.MessageListener;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.Subscription;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.core.internal.consume.dedup.DeduplicatingListener;
import io.lanemq.core.internal.consume.listener.DeliveredMessage;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.Ticker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Two consumer instances of one group, each with its own deduplicating listener and its own connection pool, sharing
 * one real redis-server: what one processed, the other drops; what one failed, the other processes; a dead
 * instance's claim expires. No broker: the listeners are called as the consumers would call them.
 */
class RedisDeduplicationStoreIT {
    private static final String KEY = "lanemq:dedup:billing:orders:";
    private static RedisServer redis;

    private final List<String> processed = new CopyOnWriteArrayList<>();
    private final SimpleMeterRegistry registryA = new SimpleMeterRegistry();
    private final SimpleMeterRegistry registryB = new SimpleMeterRegistry();
    private RedisDeduplicationStore storeA;
    private RedisDeduplicationStore storeB;

    @BeforeAll
    static void startRedis() throws Exception {
        redis = RedisServer.started();
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.close();
        }
    }

    @AfterEach
    void closeStores() {
        for (RedisDeduplicationStore store : new RedisDeduplicationStore[] {storeA, storeB}) {
            if (store != null) {
                store.close();
            }
        }
        try (Jedis jedis = redis.client()) {
            jedis.flushAll();
        }
    }

    @Test
    void aCopyProcessedByOneInstanceIsDroppedByTheOtherAndRememberedForTheWindow() {
        MessageListener a = instance("a", registryA, m -> ConsumeResult.SUCCESS, Duration.ofMinutes(2));
        MessageListener b = instance("b", registryB, m -> ConsumeResult.SUCCESS, Duration.ofMinutes(2));

        assertThat(a.consume(message("id-1"))).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(b.consume(message("id-1"))).as("the copy at the other instance").isEqualTo(ConsumeResult.SUCCESS);

        assertThat(processed).containsExactly("id-1@a");
        assertThat(dropped(registryB)).isEqualTo(1);
        try (Jedis jedis = redis.client()) {
            assertThat(jedis.get(KEY + "id-1")).isEqualTo("DONE");
            assertThat(jedis.pttl(KEY + "id-1")).as("expires with the 10 min window").isBetween(1L, 600_000L).isGreaterThan(590_000L);
        }
    }

    @Test
    void aFailedAttemptIsReleasedAndTheOtherInstanceProcessesTheRetry() {
        MessageListener a = instance("a", registryA, m -> ConsumeResult.RETRY_LATER, Duration.ofMinutes(2));
        MessageListener b = instance("b", registryB, m -> ConsumeResult.SUCCESS, Duration.ofMinutes(2));

        assertThat(a.consume(message("id-1"))).isEqualTo(ConsumeResult.RETRY_LATER);
        try (Jedis jedis = redis.client()) {
            assertThat(jedis.exists(KEY + "id-1")).as("the failed attempt's claim released").isFalse();
        }
        assertThat(b.consume(message("id-1"))).isEqualTo(ConsumeResult.SUCCESS);

        assertThat(processed).containsExactly("id-1@a", "id-1@b");
        assertThat(dropped(registryB)).isZero();
    }

    @Test
    void aCopyArrivingWhileTheOtherInstanceProcessesIsRetriedThenDropped() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        MessageListener a = instance("a", registryA, m -> {
            inside.countDown();
            try {
                finish.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ConsumeResult.SUCCESS;
        }, Duration.ofMinutes(2));
        MessageListener b = instance("b", registryB, m -> ConsumeResult.SUCCESS, Duration.ofMinutes(2));
        Thread first = new Thread(() -> a.consume(message("id-1")), "instance-a-consumer");
        first.start();
        assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(b.consume(message("id-1"))).as("undecided yet").isEqualTo(ConsumeResult.RETRY_LATER);
        finish.countDown();
        first.join(10_000);
        assertThat(b.consume(message("id-1"))).as("its retry").isEqualTo(ConsumeResult.SUCCESS);

        assertThat(processed).containsExactly("id-1@a");
        assertThat(dropped(registryB)).isEqualTo(1);
    }

    @Test
    void theClaimOfAnInstanceThatDiedMidProcessingExpiresAndTheOtherTakesTheMessageUp() {
        storeA = RedisDeduplicationStore.builder("127.0.0.1", redis.port()).build();
        // Instance A claimed the message, then died before done or release.
        assertThat(storeA.claim("billing:orders:id-1", "a:1", Duration.ofMillis(300))).isEqualTo(DeduplicationStore.Claim.CLAIMED);
        MessageListener b = instance("b", registryB, m -> ConsumeResult.SUCCESS, Duration.ofMillis(300));

        assertThat(b.consume(message("id-1"))).as("claimed by A").isEqualTo(ConsumeResult.RETRY_LATER);
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> b.consume(message("id-1")) == ConsumeResult.SUCCESS);

        assertThat(processed).containsExactly("id-1@b");
    }

    @Test
    void aLateReleaseLeavesAnotherAttemptsClaimAlone() {
        storeA = RedisDeduplicationStore.builder("127.0.0.1", redis.port()).build();
        storeB = RedisDeduplicationStore.builder("127.0.0.1", redis.port()).build();
        assertThat(storeA.claim("k", "a:1", Duration.ofMillis(200))).isEqualTo(DeduplicationStore.Claim.CLAIMED);
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> storeB.claim("k", "b:1", Duration.ofMinutes(1)) == DeduplicationStore.Claim.CLAIMED);

        storeA.release("k", "a:1");
        assertThat(storeB.claim("k", "b:2", Duration.ofMinutes(1))).as("B's claim survived A's release")
                .isEqualTo(DeduplicationStore.Claim.RUNNING);
        storeB.done("k", Duration.ofMinutes(1));
        storeA.release("k", "a:1");
        storeB.release("k", "b:1");
        assertThat(storeA.claim("k", "a:2", Duration.ofMinutes(1))).as("a release never undoes a done").isEqualTo(DeduplicationStore.Claim.DONE);
    }

    @Test
    void anUnreachableRedisLetsEveryMessageThroughWithinTheTimeoutAndCountsIt() throws Exception {
        storeA = RedisDeduplicationStore.builder("127.0.0.1", RedisServer.freePort()).timeout(Duration.ofMillis(200)).build();
        MessageListener a = listener("a", storeA, registryA, m -> ConsumeResult.SUCCESS, Duration.ofMinutes(2));

        long started = System.nanoTime();
        assertThat(a.consume(message("id-1"))).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("bounded by the timeouts").isLessThan(Duration.ofSeconds(2));

        assertThat(processed).containsExactly("id-1@a");
        assertThat(registryA.get(SdkMetrics.DEDUP_STORE_FAILURES).tag(SdkMetrics.TAG_OPERATION, "claim").counter().count()).isEqualTo(1);
        assertThat(registryA.get(SdkMetrics.DEDUP_STORE_FAILURES).tag(SdkMetrics.TAG_OPERATION, "done").counter().count()).isEqualTo(1);
    }

    private MessageListener instance(String name, SimpleMeterRegistry registry, Function<ReceivedMessage, ConsumeResult> answer,
                                     Duration claimTtl) {
        RedisDeduplicationStore store = RedisDeduplicationStore.builder("127.0.0.1", redis.port()).build();
        if (name.equals("a")) {
            storeA = store;
        } else {
            storeB = store;
        }
        return listener(name, store, registry, answer, claimTtl);
    }

    private MessageListener listener(String name, DeduplicationStore store, SimpleMeterRegistry registry,
                                     Function<ReceivedMessage, ConsumeResult> answer, Duration claimTtl) {
        Subscription subscription = Subscription.builder("orders", "billing")
                .deduplicate(Deduplication.byMessageId(Duration.ofMinutes(10)).withStore(store).withClaimTtl(claimTtl)).build();
        return DeduplicatingListener.wrap(subscription, message -> {
            processed.add(message.messageId() + "@" + name);
            return answer.apply(message);
        }, new SdkMetrics(registry, "instance-" + name), Ticker.system());
    }

    private static double dropped(SimpleMeterRegistry registry) {
        return registry.get(SdkMetrics.DUPLICATES_DROPPED).tag(SdkMetrics.TAG_GROUP, "billing").counter().count();
    }

    private static ReceivedMessage message(String id) {
        BoundMessage bound = new BoundMessage(id, "orders_cluster-a", "body".getBytes(StandardCharsets.UTF_8), List.of(),
                Optional.empty(), Map.of(), Optional.empty(), "broker-0", 0, 0L, 1, 0L);
        return new DeliveredMessage("orders", "cluster-a", bound);
    }
}
