package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.localstack.LocalPlatform;
import io.lanemq.proxy.protocol.Delivery;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Messages with a sharding key reach consumers one at a time per key, in send order, even when a consumer dies holding one. */
class OrderedDeliveryIT {
    private static final int MESSAGES = 300;
    private static final int KEYS = 6;

    @Test
    void perKeyOrderHoldsAcrossAConsumersDeath() throws Exception {
        String group = LocalPlatform.unique("proxy-ordered");
        LocalPlatform platform = ProxyHarness.platform().addTopic("proxy-ordered", 4, 50, 50, group);
        AtomicInteger victimAcks = new AtomicInteger();
        try (ConsumerProxyServer proxy = ConsumerProxyServer.start(ProxyHarness.config(platform, b -> b));
             TestConsumer victim = ProxyHarness.consumer(proxy, "victim", d -> victimAcks.incrementAndGet() <= 20)
                     .subscribe(ProxyHarness.APPLICATION, group, "proxy-ordered", 8);
             TestConsumer steady1 = ProxyHarness.consumer(proxy, "steady1", d -> true)
                     .subscribe(ProxyHarness.APPLICATION, group, "proxy-ordered", 8);
             TestConsumer steady2 = ProxyHarness.consumer(proxy, "steady2", d -> true)
                     .subscribe(ProxyHarness.APPLICATION, group, "proxy-ordered", 8)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> Stream.of(victim, steady1, steady2).allMatch(c -> c.subscribed.get() != null));
            ProxyHarness.send(platform, "proxy-ordered", MESSAGES, i -> "customer-" + (i % KEYS));

            // The victim stops acking after 20 messages and then dies holding what it was given.
            await().atMost(Duration.ofSeconds(60)).until(() -> victim.deliveries.size() > 20);
            int heldByVictim = victim.deliveries.size() - victim.acked.size();
            victim.kill();

            await().atMost(Duration.ofSeconds(60)).until(() -> acked(victim, steady1, steady2).stream()
                    .map(Delivery::getMessageId).distinct().count() == MESSAGES);
            List<Delivery> all = acked(victim, steady1, steady2);
            assertThat(all).as("nothing acked twice").hasSize(MESSAGES);
            assertThat(heldByVictim).as("the victim held messages when it died").isPositive();

            // Delivery ids grow in delivery order; a key's next message is delivered only after the previous one's ack.
            Map<String, List<Integer>> sequences = all.stream().sorted(Comparator.comparingLong(Delivery::getDeliveryId))
                    .collect(Collectors.groupingBy(Delivery::getShardingKey,
                            Collectors.mapping(OrderedDeliveryIT::sequence, Collectors.toList())));
            assertThat(sequences).hasSize(KEYS);
            sequences.forEach((key, sequence) -> assertThat(sequence).as("order of " + key).isSorted()
                    .hasSize(MESSAGES / KEYS));
            assertThat(all.stream().filter(d -> d.getAttempt() > 1).count())
                    .as("the message the victim held went to someone else").isGreaterThanOrEqualTo(1);
            System.out.printf("OrderedDeliveryIT: %d messages, %d keys, victim held %d at death, acks victim/steady1/steady2 = %d/%d/%d%n",
                    MESSAGES, KEYS, heldByVictim, victim.acked.size(), steady1.acked.size(), steady2.acked.size());
        } finally {
            platform.close();
        }
    }

    private static List<Delivery> acked(TestConsumer... consumers) {
        List<Delivery> all = new ArrayList<>();
        for (TestConsumer consumer : consumers) {
            all.addAll(consumer.acked);
        }
        return all;
    }

    private static int sequence(Delivery delivery) {
        return Integer.parseInt(delivery.getBody().toString(StandardCharsets.UTF_8).substring("message-".length()));
    }
}
