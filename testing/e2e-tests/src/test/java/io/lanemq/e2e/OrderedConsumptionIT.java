package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Consumer;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.Subscription;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.RocketMqStack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/** Messages with the same sharding key are consumed in send order, across two clusters. */
@Isolated
class OrderedConsumptionIT {
    private static final int KEYS = 20;
    private static final int PER_KEY = 200;

    @Test
    void eachShardingKeyIsConsumedInSendOrder() throws Exception {
        String group = LocalPlatform.unique("ordered");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("ledger", 4, 50, 50, group);
        Map<String, List<Integer>> seen = new ConcurrentHashMap<>();
        Map<String, String> clusterOfKey = new ConcurrentHashMap<>();

        try (MessagingClient client = platform.client("ordered-it");
             Producer producer = client.createProducer(ProducerOptions.defaults());
             Consumer consumer = client.subscribe(Subscription.builder("ledger", group).ordered(true).build(), message -> {
                 String key = message.shardingKey().orElseThrow();
                 seen.computeIfAbsent(key, k -> Collections.synchronizedList(new ArrayList<>()))
                         .add(Integer.parseInt(new String(message.body(), StandardCharsets.UTF_8)));
                 clusterOfKey.merge(key, message.cluster(), (a, b) -> a.equals(b) ? a : "BOTH");
                 return ConsumeResult.SUCCESS;
             })) {
            ExecutorService senders = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    int thread = t;
                    done.add(senders.submit(() -> {
                        // Each key belongs to one sending thread, so its send order is well defined.
                        for (int seq = 0; seq < PER_KEY; seq++) {
                            for (int key = thread; key < KEYS; key += 4) {
                                producer.send(Message.builder("ledger").shardingKey("account-" + key)
                                        .body(Integer.toString(seq).getBytes(StandardCharsets.UTF_8)).build());
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
            } finally {
                senders.shutdownNow();
            }

            await().atMost(Duration.ofSeconds(60)).until(() -> seen.values().stream().mapToInt(List::size).sum() >= KEYS * PER_KEY);
            List<Integer> expected = IntStream.range(0, PER_KEY).boxed().toList();
            assertThat(seen).hasSize(KEYS);
            seen.forEach((key, sequence) -> assertThat(sequence).as("order of " + key).isEqualTo(expected));
            assertThat(clusterOfKey.values()).as("a key stays on one cluster").doesNotContain("BOTH");
            assertThat(clusterOfKey.values()).as("keys spread over both clusters")
                    .contains(platform.idcA().clusterName(), platform.idcB().clusterName());
        }
    }
}
