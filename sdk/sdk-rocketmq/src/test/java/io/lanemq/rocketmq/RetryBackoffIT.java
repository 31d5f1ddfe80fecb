package io.lanemq.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.MessageContext;
import io.lanemq.api.RetryBackoff;
import io.lanemq.api.spi.BoundConsumer;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.api.spi.BoundConsumerSpec.StartPosition;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.api.spi.BoundProducer;
import io.lanemq.api.spi.BoundProducerSpec;
import io.lanemq.api.spi.ClusterEndpoint;
import io.lanemq.api.spi.PhysicalMessage;
import io.lanemq.testkit.RocketMqStack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A subscription's back-off on a real broker: an unordered retry waits the nearest delay level (1 s for a 1 s back-off,
 * where RocketMQ's own first retry waits 10 s), an ordered one pauses its queue for the delay, and the message comes
 * back with its keys, lane, stress mark and trace context (user properties) and the next attempt number.
 */
@Execution(ExecutionMode.CONCURRENT) // waits on its own topics and groups: see junit-platform.properties
class RetryBackoffIT {
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    /** Well below RocketMQ's default first retry (level 3, 10 s): only the back-off's level explains it. */
    private static final long BELOW_DEFAULT_MILLIS = 7_000;
    private static final Map<String, String> MARKS = Map.of(MessageContext.LANE_PROPERTY, "A.X",
            MessageContext.STRESS_TEST_PROPERTY, "true",
            "traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");

    private final RocketMqStack stack = FastClusterA.stack();
    private final ClusterEndpoint endpoint = FastClusterA.endpoint();
    private final RocketMqBinding binding = new RocketMqBinding();

    @Test
    void anUnorderedRetryWaitsTheNearestDelayLevelAndKeepsItsMarks() throws Exception {
        retriedWithItsMarks(false);
    }

    @Test
    void anOrderedRetryPausesItsQueueForTheDelayAndKeepsItsMarks() throws Exception {
        retriedWithItsMarks(true);
    }

    private void retriedWithItsMarks(boolean ordered) throws Exception {
        String topic = FastClusterA.unique(ordered ? "backoff_ordered" : "backoff");
        stack.createTopic(endpoint.clusterName(), topic, 1);
        Queue<BoundMessage> seen = new ConcurrentLinkedQueue<>();
        Queue<Long> seenAt = new ConcurrentLinkedQueue<>();
        try (BoundProducer producer = binding.createProducer(new BoundProducerSpec(endpoint, FastClusterA.unique("producer"),
                Duration.ofSeconds(5), 4 * 1024 * 1024, Optional.empty()));
             BoundConsumer ignored = binding.createConsumer(BoundConsumerSpec.builder(endpoint, FastClusterA.unique("group"), topic)
                     .ordered(ordered).consumeThreads(2).maxDeliveryAttempts(5).startPosition(StartPosition.EARLIEST)
                     .retryBackoff(RetryBackoff.fixed(Duration.ofSeconds(1))).build(), message -> {
                         seen.add(message);
                         seenAt.add(System.nanoTime());
                         return message.deliveryAttempt() < 3 ? ConsumeResult.RETRY_LATER : ConsumeResult.SUCCESS;
                     })) {
            String id = producer.send(new PhysicalMessage(topic, "retried".getBytes(StandardCharsets.UTF_8),
                    List.of("order-7"), Optional.empty(), MARKS, Optional.empty())).messageId();

            await().atMost(DEADLINE).until(() -> seen.size() >= 3);

            assertThat(seen).extracting(BoundMessage::deliveryAttempt).containsExactly(1, 2, 3);
            assertThat(seen).allSatisfy(m -> {
                assertThat(m.messageId()).isEqualTo(id);
                assertThat(m.topic()).isEqualTo(topic);
                assertThat(m.keys()).containsExactly("order-7");
                assertThat(m.properties()).as("lane, stress mark and trace context").containsAllEntriesOf(MARKS);
            });
            List<Long> at = List.copyOf(seenAt);
            for (int i = 1; i < at.size(); i++) {
                long waitedMillis = (at.get(i) - at.get(i - 1)) / 1_000_000;
                assertThat(waitedMillis).as("wait before attempt %d", i + 1).isBetween(900L, BELOW_DEFAULT_MILLIS);
            }
        }
    }
}
