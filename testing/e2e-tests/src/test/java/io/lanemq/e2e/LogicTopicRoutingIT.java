package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.Consumer;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.SendResult;
import io.lanemq.api.Subscription;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.RocketMqStack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/** Logic topics routed over two real clusters (IDCs) by weight; consumers dual-connected to both. */
@Isolated
class LogicTopicRoutingIT {

    @Test
    void fiftyFiftyWeightsSplitSendsAndEveryGroupGetsEachMessageExactlyOnce() throws Exception {
        String billing = LocalPlatform.unique("billing");
        String audit = LocalPlatform.unique("audit");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("order-paid", 8, 50, 50, billing, audit);
        Received billingReceived = new Received();
        Received auditReceived = new Received();
        int total = 10_000;

        try (MessagingClient client = platform.client("routing-it");
             Producer producer = client.createProducer(ProducerOptions.defaults());
             Consumer billingConsumer = client.subscribe(Subscription.builder("order-paid", billing).build(), billingReceived);
             Consumer auditConsumer = client.subscribe(Subscription.builder("order-paid", audit).build(), auditReceived)) {
            List<SendResult> sent = sendAll(producer, "order-paid", total);

            Map<String, Long> sentByCluster = sent.stream().collect(Collectors.groupingBy(SendResult::cluster, Collectors.counting()));
            String clusterA = platform.idcA().clusterName();
            String clusterB = platform.idcB().clusterName();
            assertThat(sentByCluster.keySet()).containsExactlyInAnyOrder(clusterA, clusterB);
            assertThat(sentByCluster.get(clusterA) / (double) total).isBetween(0.40, 0.60);
            assertThat(sent).allSatisfy(r -> assertThat(r.logicTopic()).isEqualTo("order-paid"));

            Set<String> sentIds = sent.stream().map(SendResult::messageId).collect(Collectors.toSet());
            assertThat(sentIds).hasSize(total);
            for (Received group : List.of(billingReceived, auditReceived)) {
                await().atMost(Duration.ofSeconds(90)).until(() -> group.distinct() >= total);
                assertThat(group.deliveriesById.keySet()).isEqualTo(sentIds);
                assertThat(group.duplicates()).as("messages delivered more than once").isZero();
                assertThat(group.fromCluster(clusterA)).isEqualTo(sentByCluster.get(clusterA).intValue());
                assertThat(group.fromCluster(clusterB)).isEqualTo(sentByCluster.get(clusterB).intValue());
            }
            assertThat(billingReceived.all).allSatisfy(m -> {
                assertThat(m.logicTopic()).isEqualTo("order-paid");
                assertThat(m.deliveryAttempt()).isEqualTo(1);
            });
        }
    }

    @Test
    void allWeightOnOneClusterSendsEverythingThereWhileConsumersStillListenToBoth() throws Exception {
        String group = LocalPlatform.unique("all-a");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("inventory", 4, 100, 0, group);
        Received received = new Received();
        int total = 500;

        try (MessagingClient client = platform.client("routing-it");
             Producer producer = client.createProducer(ProducerOptions.defaults());
             Consumer consumer = client.subscribe(Subscription.builder("inventory", group).build(), received)) {
            List<SendResult> sent = sendAll(producer, "inventory", total);

            assertThat(sent).extracting(SendResult::cluster).containsOnly(platform.idcA().clusterName());
            await().atMost(Duration.ofSeconds(60)).until(() -> received.distinct() >= total);
            assertThat(received.fromCluster(platform.idcA().clusterName())).isEqualTo(total);
            assertThat(received.fromCluster(platform.idcB().clusterName())).isZero();
        }
    }

    /** Sends with bounded concurrency through the async API, so 10,000 sends take seconds, not minutes. */
    private static List<SendResult> sendAll(Producer producer, String logicTopic, int total) throws Exception {
        Semaphore inFlight = new Semaphore(128);
        List<CompletableFuture<SendResult>> futures = new ArrayList<>(total);
        Set<Throwable> failures = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < total; i++) {
            inFlight.acquire();
            Message message = Message.builder(logicTopic).body(("message-" + i).getBytes(StandardCharsets.UTF_8))
                    .keys("k" + i).build();
            CompletableFuture<SendResult> future = producer.sendAsync(message);
            future.whenComplete((r, e) -> {
                if (e != null) {
                    failures.add(e);
                }
                inFlight.release();
            });
            futures.add(future);
        }
        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).exceptionally(e -> null).join();
        assertThat(failures).as("failed sends").isEmpty();
        return futures.stream().map(CompletableFuture::join).collect(Collectors.toList());
    }
}
