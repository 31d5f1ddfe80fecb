package io.lanemq.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;
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
import io.lanemq.testkit.RocketMqStack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageClientIDSetter;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** A message the listener answers DEAD_LETTER reaches the group's %DLQ% topic on a real broker at its first attempt. */
@Execution(ExecutionMode.CONCURRENT) // waits on its own topics and groups: see junit-platform.properties
class DeadLetterIT {
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private final RocketMqStack stack = FastClusterA.stack();
    private final ClusterEndpoint endpoint = FastClusterA.endpoint();
    private final RocketMqBinding binding = new RocketMqBinding();

    @Test
    void anUnorderedRejectedMessageIsStoredInTheDeadLetterTopicWithoutARetry() throws Exception {
        rejectedMessagesReachTheDeadLetterTopic(false);
    }

    @Test
    void anOrderedRejectedMessageIsStoredInTheDeadLetterTopicAndTheQueueMovesOn() throws Exception {
        rejectedMessagesReachTheDeadLetterTopic(true);
    }

    private void rejectedMessagesReachTheDeadLetterTopic(boolean ordered) throws Exception {
        String topic = FastClusterA.unique(ordered ? "dlq_ordered" : "dlq");
        stack.createTopic(endpoint.clusterName(), topic, 1);
        String group = FastClusterA.unique("group");
        Queue<BoundMessage> seen = new ConcurrentLinkedQueue<>();
        try (BoundProducer producer = binding.createProducer(new BoundProducerSpec(endpoint, FastClusterA.unique("producer"),
                Duration.ofSeconds(5), 4 * 1024 * 1024, Optional.empty()));
             BoundConsumer ignored = binding.createConsumer(BoundConsumerSpec.builder(endpoint, group, topic).ordered(ordered)
                     .consumeThreads(2).maxDeliveryAttempts(16).startPosition(StartPosition.EARLIEST).build(), message -> {
                         seen.add(message);
                         return text(message).startsWith("bad") ? ConsumeResult.DEAD_LETTER : ConsumeResult.SUCCESS;
                     })) {
            String bad = producer.send(plain(topic, "bad-1")).messageId();
            producer.send(plain(topic, "good-2"));

            MessageExt dead = readOne(GroupTopics.deadLetterTopic(group));
            await().atMost(DEADLINE).until(() -> seen.stream().anyMatch(m -> text(m).equals("good-2")));

            assertThat(MessageClientIDSetter.getUniqID(dead)).isEqualTo(bad);
            assertThat(new String(dead.getBody(), StandardCharsets.UTF_8)).isEqualTo("bad-1");
            assertThat(dead.getProperty(MessageConst.PROPERTY_RETRY_TOPIC)).as("the topic it came from").isEqualTo(topic);
            assertThat(seen).filteredOn(m -> text(m).equals("bad-1")).as("delivered once: no attempt spent on retries")
                    .singleElement().extracting(BoundMessage::deliveryAttempt).isEqualTo(1);
        }
    }

    /** The first message of a topic on idc-a, read with a throwaway group. */
    private MessageExt readOne(String topic) throws Exception {
        DefaultLitePullConsumer reader = new DefaultLitePullConsumer(FastClusterA.unique("dlq_reader"));
        reader.setNamesrvAddr(endpoint.nameServerAddress());
        reader.setInstanceName(FastClusterA.unique("dlq_reader"));
        reader.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        reader.setPollNameServerInterval(1000);
        reader.subscribe(topic, "*");
        reader.start();
        try {
            List<MessageExt> read = new ArrayList<>();
            await().atMost(DEADLINE).until(() -> {
                read.addAll(reader.poll(200));
                return !read.isEmpty();
            });
            return read.get(0);
        } finally {
            reader.shutdown();
        }
    }

    private static PhysicalMessage plain(String topic, String body) {
        return new PhysicalMessage(topic, body.getBytes(StandardCharsets.UTF_8), List.of(), Optional.empty(), Map.of(),
                Optional.empty());
    }

    private static String text(BoundMessage message) {
        return new String(message.body(), StandardCharsets.UTF_8);
    }
}
