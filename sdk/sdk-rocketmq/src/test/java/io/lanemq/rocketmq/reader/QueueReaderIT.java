package io.lanemq.rocketmq.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.MessagingException;
import io.lanemq.api.spi.ClusterEndpoint;
import io.lanemq.rocketmq.FetchedMessage;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.RocketMqStack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Test;

/**
 * A reader starts only where its topic can be read: on the shared stack's cluster idc-a, with RocketMQ's default client
 * intervals (routes polled every 30 s), so a start that left the route to the next poll would read nothing here.
 */
class QueueReaderIT {

    private static Idc idcA() {
        return RocketMqStack.shared().idc("idc-a");
    }

    private static String unique(String what) {
        return "lanemq_it_reader_" + what + "_" + ProcessHandle.current().pid() + "_" + System.nanoTime();
    }

    private static ClusterEndpoint endpoint() {
        return new ClusterEndpoint(idcA().clusterName(), idcA().name(), idcA().nameServerAddress(), Map.of());
    }

    private static QueueReader<NoLedger> reader(String group, String topic, List<FetchedMessage> read, RouteCheck routes)
            throws Exception {
        return QueueReader.<NoLedger>builder(group, endpoint())
                .routeCheck(routes)
                .threadName("queue-reader-it-" + group)
                .topics(topic)
                .fromFirstOffset(true)
                .ledgers(queue -> new NoLedger())
                .policy(read::addAll)
                .build();
    }

    @Test
    void aTopicTheNameServerDoesNotKnowFailsTheStartNamingItInsteadOfReadingNothing() throws Exception {
        String topic = unique("unknown");
        try (RouteCheck routes = RouteCheck.of(endpoint());
             QueueReader<NoLedger> reader = reader(unique("group_u"), topic, new CopyOnWriteArrayList<>(), routes)) {
            long begin = System.nanoTime();
            assertThatThrownBy(reader::start).isInstanceOf(MessagingException.class)
                    .hasMessageContaining(topic).hasMessageContaining(idcA().clusterName());
            long failedIn = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin);
            System.out.printf("QueueReader start of an unknown topic failed in %d ms%n", failedIn);
            assertThat(reader.isReading()).as("a reader whose start failed reads").isFalse();
            assertThat(failedIn).as("the name server answers at once: the failure too (ms)").isLessThan(1_000);
        }
    }

    @Test
    void aRoutableTopicIsReadAtOnce() throws Exception {
        String topic = unique("known");
        RocketMqStack.shared().createTopic(idcA().clusterName(), topic, 2);
        List<FetchedMessage> read = new CopyOnWriteArrayList<>();
        DefaultMQProducer producer = new DefaultMQProducer(unique("producer"));
        producer.setNamesrvAddr(idcA().nameServerAddress());
        producer.setInstanceName(unique("producer"));
        producer.start();
        try (RouteCheck routes = RouteCheck.of(endpoint());
             QueueReader<NoLedger> reader = reader(unique("group_k"), topic, read, routes)) {
            // The route reaches the name server shortly after the broker created the topic.
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                    .until(() -> {
                        routes.require(topic);
                        return true;
                    });
            long begin = System.nanoTime();
            reader.start();
            long startedIn = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin);
            assertThat(reader.isReading()).isTrue();
            producer.send(new Message(topic, "hello".getBytes(StandardCharsets.UTF_8)));
            long sent = System.nanoTime();
            await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(20)).until(() -> !read.isEmpty());
            System.out.printf("QueueReader started in %d ms; the first message read %d ms after its send%n", startedIn,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent));
            assertThat(startedIn).as("start with the name server answering at once (ms)").isLessThan(2_000);
        } finally {
            producer.shutdown();
        }
    }

    private static final class NoLedger implements OffsetLedger {
        @Override
        public OptionalLong committableOffset() {
            return OptionalLong.empty();
        }

        @Override
        public void revoke() {
        }
    }
}
