package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.Consumer;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.SendResult;
import io.lanemq.api.Subscription;
import io.lanemq.config.BatchConfig;
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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Batch gathering against real brokers: concurrent sends leave as RocketMQ batch requests, yet every message
 * has its own id, is stored once and consumed once; one key's sends are stored in the order they were made;
 * the held-bytes limit holds callers back without losing anything; a reload switches gathering for the next
 * sends of a running producer.
 */
@Isolated
class BatchGatheringIT {
    @RegisterExtension
    static final GlobalMeters METRICS = new GlobalMeters();

    @Test
    void concurrentSyncSendersAreGatheredAndEachMessageIsStoredAndConsumedOnceUnderItsOwnId() throws Exception {
        String application = LocalPlatform.unique("batch-sync");
        String group = LocalPlatform.unique("batch-sync");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("basket", 4, 50, 50, group)
                .batch(new BatchConfig(32, 256 * 1024, 1, Duration.ZERO));
        Received received = new Received();
        try (MessagingClient client = platform.client(application);
             Producer producer = client.createProducer(ProducerOptions.defaults());
             Consumer consumer = client.subscribe(Subscription.builder("basket", group).build(), received)) {
            Map<String, String> bodyById = sendFromThreads(producer, "basket", 16, 150);

            assertThat(bodyById).as("16 x 150 sends, each answered with an id of its own").hasSize(16 * 150);
            await().atMost(Duration.ofSeconds(60)).until(() -> received.deliveriesById.keySet().containsAll(bodyById.keySet()));
            assertThat(received.duplicates()).as("messages delivered twice").isZero();
            assertThat(received.all).allSatisfy(m -> assertThat(new String(m.body(), StandardCharsets.UTF_8))
                    .as("the body stored under id %s", m.messageId()).isEqualTo(bodyById.get(m.messageId())));
            long[] gathered = METRICS.gatheredRequestsAndMessages(application);
            System.out.printf("16 sync senders: %d messages in %d requests (%.1f per request)%n", gathered[1], gathered[0],
                    (double) gathered[1] / gathered[0]);
            assertThat(gathered[1]).as("messages through the gathering").isEqualTo(16 * 150);
            assertThat(gathered[0]).as("requests: fewer than the messages, or nothing was gathered").isLessThan(16 * 150 / 2);
        }
    }

    @Test
    void oneKeysAsynchronousSendsAreStoredInTheOrderTheyWereMade() throws Exception {
        String application = LocalPlatform.unique("batch-order");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("ledger", 4, 100, 0)
                .batch(new BatchConfig(16, 256 * 1024, 4, Duration.ZERO));
        try (MessagingClient client = platform.client(application);
             Producer producer = client.createProducer(ProducerOptions.defaults())) {
            producer.send(Message.builder("ledger").shardingKey("account-1").body(new byte[] {0}).build()); // the route
            List<CompletableFuture<SendResult>> sent = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                sent.add(producer.sendAsync(Message.builder("ledger").shardingKey("account-1")
                        .body(String.valueOf(i).getBytes(StandardCharsets.UTF_8)).build()));
            }
            List<SendResult> results = new ArrayList<>();
            for (CompletableFuture<SendResult> f : sent) {
                results.add(f.get(30, TimeUnit.SECONDS));
            }

            assertThat(results.stream().map(r -> r.cluster() + "/" + r.queueId()).distinct()).as("one queue").hasSize(1);
            for (int i = 1; i < results.size(); i++) {
                assertThat(results.get(i).queueOffset()).as("the broker's offset of send %d, after send %d's", i, i - 1)
                        .isGreaterThan(results.get(i - 1).queueOffset());
            }
            long[] gathered = METRICS.gatheredRequestsAndMessages(application);
            assertThat(gathered[0]).as("requests for 401 sends of one key").isLessThan(401 / 2);
        }
    }

    @Test
    void sendersBeyondMaxHeldBytesWaitForRoomAndNothingIsLost() throws Exception {
        String group = LocalPlatform.unique("batch-held");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("parcel", 4, 50, 50, group)
                .maxBodyBytes(2048).maxHeldBytes(4 * 1024);
        Received received = new Received();
        try (MessagingClient client = platform.client(LocalPlatform.unique("batch-held"));
             Producer producer = client.createProducer(ProducerOptions.defaults());
             Consumer consumer = client.subscribe(Subscription.builder("parcel", group).build(), received)) {
            Map<String, String> bodyById = sendFromThreads(producer, "parcel", 12, 50, 1024);

            assertThat(bodyById).as("every send succeeded, 4 KiB held at most").hasSize(12 * 50);
            await().atMost(Duration.ofSeconds(60)).until(() -> received.deliveriesById.keySet().containsAll(bodyById.keySet()));
        }
    }

    @Test
    void aReloadTurnsGatheringOffForTheNextSendsOfARunningProducer() throws Exception {
        String application = LocalPlatform.unique("batch-reload");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("voucher", 4, 50, 50);
        try (MessagingClient client = platform.client(application);
             Producer producer = client.createProducer(ProducerOptions.defaults())) {
            sendFromThreads(producer, "voucher", 8, 100);
            long[] before = METRICS.gatheredRequestsAndMessages(application);
            assertThat(before[1]).as("gathered with the defaults (a failover retry passes again)").isGreaterThanOrEqualTo(800);

            double reloads = METRICS.reloadsApplied(application);
            platform.batch(BatchConfig.OFF).writeConfig();
            await().atMost(Duration.ofSeconds(10)).until(() -> METRICS.reloadsApplied(application) > reloads);
            Map<String, String> after = sendFromThreads(producer, "voucher", 8, 100);

            assertThat(after).hasSize(800);
            assertThat(METRICS.gatheredRequestsAndMessages(application)).as("no message went through the gathering after it")
                    .containsExactly(before);
        }
    }

    private static Map<String, String> sendFromThreads(Producer producer, String topic, int threads, int perThread)
            throws InterruptedException {
        return sendFromThreads(producer, topic, threads, perThread, 300);
    }

    /** Sync sends from {@code threads} threads; the body of each acknowledged send by its message id. */
    private static Map<String, String> sendFromThreads(Producer producer, String topic, int threads, int perThread, int bytes)
            throws InterruptedException {
        Map<String, String> bodyById = new ConcurrentHashMap<>();
        Set<Throwable> failures = ConcurrentHashMap.newKeySet();
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread sender = new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    String body = (thread + "-" + i + "-").repeat(bytes).substring(0, bytes);
                    try {
                        SendResult result = producer.send(Message.builder(topic).body(body.getBytes(StandardCharsets.UTF_8)).build());
                        bodyById.put(result.messageId(), body);
                    } catch (MessagingException e) {
                        failures.add(e);
                    }
                }
            });
            sender.start();
            running.add(sender);
        }
        for (Thread thread : running) {
            thread.join(TimeUnit.SECONDS.toMillis(120));
        }
        assertThat(failures).as("failed sends").isEmpty();
        return bodyById;
    }
}
