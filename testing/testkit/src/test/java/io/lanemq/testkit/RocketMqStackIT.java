package io.lanemq.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class RocketMqStackIT {

    private static final int MESSAGES = 100;
    private static final Duration CONSUME_TIMEOUT = Duration.ofSeconds(60);

    private static RocketMqStack stack;
    private final RocketMqClients clients = new RocketMqClients();

    @BeforeAll
    static void startSharedStack() throws IOException {
        long startNanos = System.nanoTime();
        stack = RocketMqStack.shared();
        System.out.printf("[testkit] shared dual-IDC stack ready in %d ms%n",
            Duration.ofNanos(System.nanoTime() - startNanos).toMillis());
        printResidentMemory("after start");
    }

    @AfterAll
    static void reportMemoryAfterLoad() throws IOException {
        printResidentMemory("after the tests");
    }

    @AfterEach
    void closeClients() {
        clients.close();
    }

    @Test
    void eachClusterStoresAndDeliversItsOwnMessages() throws Exception {
        String topic = uniqueName("it-traffic");
        stack.createTopic(topic, 4);

        for (Idc idc : stack.idcs()) {
            DefaultMQProducer producer = clients.producer(idc, uniqueName("it-producer"));
            Set<String> sent = sendKeyed(producer, topic, idc.name(), MESSAGES);
            Set<String> received = ConcurrentHashMap.newKeySet();
            clients.consumer(idc, uniqueName("it-consumer"), topic, received);

            await().atMost(CONSUME_TIMEOUT).untilAsserted(() -> assertThat(received).containsAll(sent));
            // Every key is prefixed by its IDC: nothing may cross from the other cluster.
            assertThat(received).allMatch(key -> key.startsWith(idc.name() + "-"));
        }
    }

    @Test
    void killedBrokerRejectsSendsKeepsItsMessagesAndServesAgainAfterStart() throws Exception {
        String topic = uniqueName("it-kill");
        stack.createTopic(topic, 4);
        Idc idcA = stack.idc("idc-a");
        Idc idcB = stack.idc("idc-b");
        BrokerNode brokerA = idcA.brokers().get(0);
        DefaultMQProducer producerA = clients.producer(idcA, uniqueName("it-producer"));
        DefaultMQProducer producerB = clients.producer(idcB, uniqueName("it-producer"));
        Set<String> sentBeforeKill = sendKeyed(producerA, topic, "before-kill", MESSAGES);

        try {
            brokerA.kill();
            assertThat(brokerA.isAlive()).isFalse();
            assertThatThrownBy(() -> producerA.send(message(topic, "while-dead")))
                .as("a send to the killed broker of idc-a").isInstanceOf(Exception.class);
            assertThat(producerB.send(message(topic, "idc-b-while-a-dead")).getSendStatus())
                .isEqualTo(SendStatus.SEND_OK);

            long restartNanos = System.nanoTime();
            brokerA.start();
            System.out.printf("[testkit] broker restart after kill -9: %d ms%n",
                Duration.ofNanos(System.nanoTime() - restartNanos).toMillis());
        } finally {
            brokerA.start(); // no-op when running; the shared stack must stay whole for the other tests
        }

        Set<String> received = ConcurrentHashMap.newKeySet();
        clients.consumer(idcA, uniqueName("it-consumer"), topic, received);
        await().atMost(CONSUME_TIMEOUT).untilAsserted(() -> assertThat(received).containsAll(sentBeforeKill));

        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
            assertThat(producerA.send(message(topic, "after-restart")).getSendStatus())
                .isEqualTo(SendStatus.SEND_OK));
    }

    @Test
    void killedIdcComesBackWithItsTopicsAndMessages() throws Exception {
        String topic = uniqueName("it-idc");
        stack.createTopic(topic, 2);
        Idc idcB = stack.idc("idc-b");
        DefaultMQProducer producerA = clients.producer(stack.idc("idc-a"), uniqueName("it-producer"));
        DefaultMQProducer producerB = clients.producer(idcB, uniqueName("it-producer"));
        Set<String> sent = sendKeyed(producerB, topic, "idc-b", 20);

        try {
            idcB.kill();
            assertThat(idcB.nameServer().isAlive()).isFalse();
            assertThat(idcB.brokers()).noneMatch(BrokerNode::isAlive);
            assertThatThrownBy(() -> producerB.send(message(topic, "while-dead"))).isInstanceOf(Exception.class);
            assertThat(producerA.send(message(topic, "idc-a-while-b-dead")).getSendStatus())
                .isEqualTo(SendStatus.SEND_OK);

            long restartNanos = System.nanoTime();
            idcB.start();
            System.out.printf("[testkit] IDC restart after kill -9 of name server and broker: %d ms%n",
                Duration.ofNanos(System.nanoTime() - restartNanos).toMillis());
        } finally {
            idcB.start();
        }

        Set<String> received = ConcurrentHashMap.newKeySet();
        clients.consumer(idcB, uniqueName("it-consumer"), topic, received);
        await().atMost(CONSUME_TIMEOUT).untilAsserted(() -> assertThat(received).containsAll(sent));
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
            assertThat(producerB.send(message(topic, "after-restart")).getSendStatus())
                .isEqualTo(SendStatus.SEND_OK));
    }

    private static Set<String> sendKeyed(DefaultMQProducer producer, String topic, String prefix, int count)
        throws Exception {
        Set<String> keys = IntStream.range(0, count).mapToObj(i -> prefix + "-" + i)
            .collect(Collectors.toCollection(ConcurrentHashMap::newKeySet));
        for (String key : keys) {
            SendResult result = producer.send(message(topic, key));
            assertThat(result.getSendStatus()).as("send of %s", key).isEqualTo(SendStatus.SEND_OK);
        }
        return keys;
    }

    private static Message message(String topic, String key) {
        Message message = new Message(topic, ("payload of " + key).getBytes(StandardCharsets.UTF_8));
        message.setKeys(key);
        return message;
    }

    private static String uniqueName(String prefix) {
        return prefix + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);
    }

    private static void printResidentMemory(String when) throws IOException {
        for (Idc idc : stack.idcs()) {
            List<ServerNode> nodes = Stream.concat(Stream.of(idc.nameServer()), idc.brokers().stream()).toList();
            for (ServerNode node : nodes) {
                long pid = node.pid().orElseThrow();
                String rss = Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream()
                    .filter(line -> line.startsWith("VmRSS:")).findFirst().orElse("VmRSS: ?").substring(6).trim();
                System.out.printf("[testkit] RSS %s: %s pid=%d %s%n", when, node, pid, rss);
            }
        }
    }
}
