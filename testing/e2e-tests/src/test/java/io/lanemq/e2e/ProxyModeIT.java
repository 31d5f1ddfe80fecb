package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Consumer;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.SendResult;
import io.lanemq.api.Subscription;
import io.lanemq.config.ConsumptionMode;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.RocketMqStack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * PROXY consumption through the public API and a real consumer proxy (TLS, token) over real brokers:
 * the same listener API and message semantics as DIRECT mode, and a wrong token refused clearly.
 */
@Execution(ExecutionMode.CONCURRENT)
class ProxyModeIT {
    private static final int MESSAGES = 2_000;
    private static final int KEYS = 8;
    private static final int PER_KEY = 40;
    @RegisterExtension
    static final GlobalMeters METRICS = new GlobalMeters();

    @Test
    void aProxyModeSubscriptionReceivesEveryMessageOfBothClustersAndRetryLaterComesBackAsAttemptTwo() throws Exception {
        String group = LocalPlatform.unique("proxy-mode");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("parcel", 4, 50, 50, group);
        Received received = new Received();
        List<ReceivedMessage> retried = new CopyOnWriteArrayList<>();
        try (ProxyFixture proxy = ProxyFixture.start(platform)) {
            platform.consumerMode("parcel", group, ConsumptionMode.PROXY);
            try (MessagingClient client = proxy.client(ProxyFixture.TOKEN);
                 Producer producer = client.createProducer(ProducerOptions.defaults());
                 Consumer consumer = client.subscribe(Subscription.builder("parcel", group).build(), message -> {
                     if (message.keys().contains("retry")) {
                         retried.add(message);
                         if (message.deliveryAttempt() == 1) {
                             return ConsumeResult.RETRY_LATER;
                         }
                     }
                     return received.consume(message);
                 })) {
                assertThat(METRICS.consumesIn(group, ConsumptionMode.PROXY)).as("the configured mode").isTrue();
                SendResult retry = producer.send(Message.builder("parcel").keys("retry").property("origin", "it")
                        .body("r".getBytes(StandardCharsets.UTF_8)).build());
                Set<String> sent = sendAll(producer, "parcel", MESSAGES);
                sent.add(retry.messageId());

                long start = System.nanoTime();
                await().atMost(Duration.ofMinutes(2)).until(() -> received.deliveriesById.keySet().containsAll(sent));
                double seconds = (System.nanoTime() - start) / 1e9;
                System.out.printf("ProxyModeIT: %d messages consumed through the proxy %.1f s after the last send;"
                                + " per cluster %s; duplicates %d%n", sent.size(), seconds, received.byCluster, received.duplicates());

                assertThat(received.fromCluster(platform.idcA().clusterName())).isPositive();
                assertThat(received.fromCluster(platform.idcB().clusterName())).isPositive();
                assertThat(retried).extracting(ReceivedMessage::deliveryAttempt).containsExactly(1, 2);
                assertThat(retried).as("the proxy's max attempts reach the listener, so a last-attempt hook works here too")
                        .extracting(ReceivedMessage::maxDeliveryAttempts).containsOnly(OptionalInt.of(5));
                assertThat(retried).extracting(ReceivedMessage::lastDeliveryAttempt).containsOnly(false);
                assertThat(retried).allSatisfy(m -> {
                    assertThat(m.messageId()).isEqualTo(retry.messageId());
                    assertThat(m.logicTopic()).isEqualTo("parcel");
                    assertThat(m.cluster()).isEqualTo(retry.cluster());
                    assertThat(m.physicalTopic()).isEqualTo(retry.physicalTopic());
                    assertThat(m.properties()).containsEntry("origin", "it");
                    assertThat(new String(m.body(), StandardCharsets.UTF_8)).isEqualTo("r");
                });
                assertThat(METRICS.find(SdkMetrics.CONSUMED).tag(SdkMetrics.TAG_GROUP, group).tag(SdkMetrics.TAG_OUTCOME, "retry")
                        .counters().stream().mapToDouble(c -> c.count()).sum()).as("listener outcomes are counted as in DIRECT mode")
                        .isEqualTo(1.0);
                assertThat(METRICS.get(SdkMetrics.PROXY_CONNECTED).tag(SdkMetrics.TAG_GROUP, group).gauge().value()).isEqualTo(1.0);
            }
        } finally {
            platform.close();
        }
    }

    @Test
    void aWrongTokenIsRefusedClearlyAndReceivesNothingWhileTheRightTokenConsumes() throws Exception {
        String group = LocalPlatform.unique("proxy-token");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("voucher", 2, 50, 50, group);
        Received refused = new Received();
        Received accepted = new Received();
        try (ProxyFixture proxy = ProxyFixture.start(platform)) {
            platform.consumerMode("voucher", group, ConsumptionMode.PROXY);
            try (MessagingClient wrong = proxy.client("not-the-token-0000");
                 MessagingClient right = proxy.client(ProxyFixture.TOKEN);
                 Producer producer = right.createProducer(ProducerOptions.defaults());
                 Consumer wrongConsumer = wrong.subscribe(Subscription.builder("voucher", group).build(), refused)) {
                await().atMost(Duration.ofSeconds(30)).until(() -> !METRICS.proxyStreamEnds(group).isEmpty());
                assertThat(METRICS.proxyStreamEnds(group)).as("each stream of the wrong token was refused as such")
                        .containsOnlyKeys("UNAUTHENTICATED");
                assertThat(METRICS.gauge(SdkMetrics.PROXY_CONNECTED, group)).isZero();

                Set<String> sent = sendAll(producer, "voucher", 50);
                try (Consumer rightConsumer = right.subscribe(Subscription.builder("voucher", group).build(), accepted)) {
                    await().atMost(Duration.ofSeconds(60)).until(() -> accepted.deliveriesById.keySet().containsAll(sent));
                }
                assertThat(refused.all).as("the refused consumer received nothing").isEmpty();
                assertThat(METRICS.gauge(SdkMetrics.PROXY_CONNECTED, group)).as("the refused consumer, alone again, never connected")
                        .isZero();
            }
        } finally {
            platform.close();
        }
    }

    @Test
    void anOrderedProxyModeSubscriptionSeesEachShardingKeyInSendOrderEvenAcrossARetry() throws Exception {
        String group = LocalPlatform.unique("proxy-ordered");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("account", 4, 50, 50, group);
        Map<String, List<Integer>> seen = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
        AtomicInteger overlaps = new AtomicInteger();
        try (ProxyFixture proxy = ProxyFixture.start(platform)) {
            platform.consumerMode("account", group, ConsumptionMode.PROXY);
            try (MessagingClient client = proxy.client(ProxyFixture.TOKEN);
                 Producer producer = client.createProducer(ProducerOptions.defaults());
                 Consumer consumer = client.subscribe(Subscription.builder("account", group).ordered(true).build(), message -> {
                     String key = message.shardingKey().orElseThrow();
                     if (inFlight.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet() > 1) {
                         overlaps.incrementAndGet();
                     }
                     try {
                         int sequence = Integer.parseInt(new String(message.body(), StandardCharsets.UTF_8));
                         if (key.equals("key-3") && sequence == 10 && message.deliveryAttempt() == 1) {
                             return ConsumeResult.RETRY_LATER;
                         }
                         seen.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>()).add(sequence);
                         return ConsumeResult.SUCCESS;
                     } finally {
                         inFlight.get(key).decrementAndGet();
                     }
                 })) {
                for (int sequence = 0; sequence < PER_KEY; sequence++) {
                    for (int key = 0; key < KEYS; key++) {
                        producer.send(Message.builder("account").shardingKey("key-" + key)
                                .body(Integer.toString(sequence).getBytes(StandardCharsets.UTF_8)).build());
                    }
                }

                await().atMost(Duration.ofSeconds(90)).until(() -> seen.values().stream().mapToInt(List::size).sum() >= KEYS * PER_KEY);
                List<Integer> expected = IntStream.range(0, PER_KEY).boxed().toList();
                assertThat(seen).hasSize(KEYS);
                seen.forEach((key, sequence) -> assertThat(sequence).as("order of " + key).isEqualTo(expected));
                assertThat(overlaps).as("listener calls overlapping on one key").hasValue(0);
            }
        } finally {
            platform.close();
        }
    }

    /** Sends {@code count} messages asynchronously, 256 in flight; returns their ids, all acknowledged. */
    static Set<String> sendAll(Producer producer, String logicTopic, int count) throws InterruptedException {
        Set<String> sent = ConcurrentHashMap.newKeySet();
        Semaphore window = new Semaphore(256);
        AtomicInteger failed = new AtomicInteger();
        for (int i = 0; i < count; i++) {
            window.acquire();
            producer.sendAsync(Message.builder(logicTopic).keys("m" + i).body(("proxy-" + i).getBytes(StandardCharsets.UTF_8)).build())
                    .whenComplete((result, failure) -> {
                        if (failure == null) {
                            sent.add(result.messageId());
                        } else {
                            failed.incrementAndGet();
                        }
                        window.release();
                    });
        }
        window.acquire(256);
        assertThat(failed).as("failed sends").hasValue(0);
        assertThat(sent).hasSize(count);
        return sent;
    }
}
