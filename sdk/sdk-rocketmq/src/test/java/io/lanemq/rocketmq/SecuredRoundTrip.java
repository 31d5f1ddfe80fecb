package io.lanemq.rocketmq;

import static org.awaitility.Awaitility.await;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.spi.BoundConsumer;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.api.spi.BoundConsumerSpec.StartPosition;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.api.spi.BoundProducer;
import io.lanemq.api.spi.BoundProducerSpec;
import io.lanemq.api.spi.ClusterEndpoint;
import io.lanemq.api.spi.PhysicalMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/** What the secured-cluster ITs do alike: unique names, a producer on an endpoint, and one message sent and consumed. */
final class SecuredRoundTrip {
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private SecuredRoundTrip() {
    }

    static String unique(String prefix) {
        return prefix + "-" + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet();
    }

    static BoundProducer producer(RocketMqBinding binding, ClusterEndpoint endpoint, String prefix, Duration sendTimeout)
            throws Exception {
        return binding.createProducer(new BoundProducerSpec(endpoint, unique(prefix + "-producer"), sendTimeout,
                4 * 1024 * 1024, Optional.empty()));
    }

    static PhysicalMessage message(String topic, String body) {
        return new PhysicalMessage(topic, body.getBytes(StandardCharsets.UTF_8), List.of(), Optional.empty(), Map.of(),
                Optional.empty());
    }

    /** Sends one message through {@code endpoint} and waits until a new group consumes it there. */
    static void sendAndAwaitConsumed(RocketMqBinding binding, ClusterEndpoint endpoint, String prefix, String topic,
                                     Duration sendTimeout) throws Exception {
        Queue<BoundMessage> received = new ConcurrentLinkedQueue<>();
        try (BoundProducer producer = producer(binding, endpoint, prefix, sendTimeout);
             BoundConsumer ignored = binding.createConsumer(BoundConsumerSpec.builder(endpoint, unique(prefix + "-billing"), topic)
                     .consumeThreads(1).startPosition(StartPosition.EARLIEST).build(), m -> {
                         received.add(m);
                         return ConsumeResult.SUCCESS;
                     })) {
            String id = producer.send(message(topic, "paid")).messageId();

            await().atMost(Duration.ofSeconds(20)).until(() -> received.stream().anyMatch(m -> m.messageId().equals(id)));
        }
    }
}
