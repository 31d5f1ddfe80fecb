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
import io.lanemq.api.TransactionResolution;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.RocketMqStack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** Transactional sends through the SDK: commit, rollback, and an unknown outcome resolved by check-back. */
@Execution(ExecutionMode.CONCURRENT)
class TransactionIT {

    @Test
    void commitIsDeliveredRollbackIsNotAndUnknownIsResolvedByCheckBack() throws Exception {
        String group = LocalPlatform.unique("tx-consumer");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("payment", 4, 50, 50, group);
        // The "database" the checker consults: decisions keyed by business key.
        Map<String, TransactionResolution> committedInDb = new ConcurrentHashMap<>();
        AtomicInteger checks = new AtomicInteger();
        ProducerOptions options = ProducerOptions.builder()
                .producerGroup(LocalPlatform.unique("tx-producer"))
                .transactionChecker(prepared -> {
                    checks.incrementAndGet();
                    return committedInDb.getOrDefault(prepared.keys().get(0), TransactionResolution.UNKNOWN);
                })
                .build();
        Received received = new Received();

        try (MessagingClient client = platform.client("tx-it");
             Producer producer = client.createProducer(options);
             Consumer consumer = client.subscribe(Subscription.builder("payment", group).build(), received)) {
            SendResult rolledBack = producer.sendInTransaction(message("rollback"), prepared -> TransactionResolution.ROLLBACK);
            SendResult committed = producer.sendInTransaction(message("commit"), prepared -> {
                assertThat(prepared.logicTopic()).isEqualTo("payment");
                return TransactionResolution.COMMIT;
            });
            SendResult unknown = producer.sendInTransaction(message("later"), prepared -> {
                committedInDb.put("later", TransactionResolution.COMMIT); // committed, but the answer is "lost"
                return TransactionResolution.UNKNOWN;
            });

            await().atMost(Duration.ofSeconds(30)).until(() -> received.deliveriesById.containsKey(committed.messageId()));
            await().atMost(Duration.ofSeconds(60)).until(() -> received.deliveriesById.containsKey(unknown.messageId()));
            assertThat(checks.get()).as("broker check-backs").isPositive();
            // The rolled-back message must never show up, even after the others arrived.
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                    .until(() -> !received.deliveriesById.containsKey(rolledBack.messageId()));
            assertThat(received.all).extracting(m -> m.keys().get(0)).containsExactlyInAnyOrder("commit", "later");
            assertThat(received.duplicates()).isZero();
        }
    }

    private static Message message(String key) {
        return Message.builder("payment").keys(key).body(("tx " + key).getBytes(StandardCharsets.UTF_8)).build();
    }
}
