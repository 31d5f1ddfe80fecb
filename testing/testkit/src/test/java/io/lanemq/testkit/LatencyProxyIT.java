package io.lanemq.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A broker behind a {@link LatencyProxy}: slow on demand, fast again, dead at once when killed. */
class LatencyProxyIT {

    private static final Duration DELAY = Duration.ofMillis(100);
    private static final int SAMPLES = 50;
    private static final Duration SEND_TIMEOUT_FOR_KILL = Duration.ofSeconds(12);

    private static RocketMqStack stack;
    private final RocketMqClients clients = new RocketMqClients();

    @BeforeAll
    static void startStackWithASlowableIdc() {
        // Not the shared stack: it has no proxy.
        stack = ProxiedTunedStack.get();
    }

    @AfterEach
    void closeClients() {
        clients.close();
    }

    @Test
    void brokerAnswersLateByTheDelayAndFastAgainWhenItIsRemoved() throws Exception {
        Idc idcB = stack.idc("idc-b");
        assertThat(idcB.brokers().get(0).latencyProxy()).isPresent();
        assertThat(stack.idc("idc-a").brokers().get(0).latencyProxy()).isEmpty();
        String topic = uniqueName("it-latency");
        stack.createTopic(idcB.clusterName(), topic, 4);
        DefaultMQProducer producer = clients.producer(idcB, uniqueName("it-latency-producer"));
        medianSendLatency(producer, topic, 20); // warm-up: route, connection, JIT

        Duration fast = medianSendLatency(producer, topic, SAMPLES);
        idcB.setBrokerDelay(DELAY);
        Duration slow = medianSendLatency(producer, topic, SAMPLES);
        idcB.setBrokerDelay(Duration.ZERO);
        Duration fastAgain = medianSendLatency(producer, topic, SAMPLES);
        System.out.printf("[testkit] median sync send to idc-b: %.2f ms, with %d ms delay %.2f ms, after %.2f ms%n",
            millis(fast), DELAY.toMillis(), millis(slow), millis(fastAgain));

        assertThat(fast).isLessThan(DELAY.dividedBy(2));
        assertThat(slow).isGreaterThanOrEqualTo(DELAY).isLessThan(DELAY.multipliedBy(3));
        assertThat(fastAgain).isLessThan(DELAY.dividedBy(2));
    }

    @Test
    void vipChannelGoesThroughTheProxyToo() throws Exception {
        Idc idcB = stack.idc("idc-b");
        String topic = uniqueName("it-latency-vip");
        stack.createTopic(idcB.clusterName(), topic, 4);
        DefaultMQProducer producer = clients.producer(idcB, uniqueName("it-latency-vip-producer"), true);

        try {
            idcB.setBrokerDelay(DELAY);
            Duration slow = medianSendLatency(producer, topic, 10);
            System.out.printf("[testkit] median sync send over the VIP channel with %d ms delay: %.2f ms%n",
                DELAY.toMillis(), millis(slow));
            assertThat(slow).isGreaterThanOrEqualTo(DELAY);
        } finally {
            idcB.setBrokerDelay(Duration.ZERO);
        }
    }

    @Test
    void killedBrokerBehindTheProxyFailsSendsFastAndServesAgainAfterStart() throws Exception {
        Idc idcB = stack.idc("idc-b");
        BrokerNode broker = idcB.brokers().get(0);
        String topic = uniqueName("it-latency-kill");
        stack.createTopic(idcB.clusterName(), topic, 4);
        DefaultMQProducer producer = clients.producer(idcB, uniqueName("it-latency-kill-producer"));
        // "Fast" means well before the send timeout, i.e. a refused connection rather than a send left to time out:
        // a long timeout keeps the two apart on a loaded machine, where a refused send can take a few seconds too.
        producer.setSendMsgTimeout((int) SEND_TIMEOUT_FOR_KILL.toMillis());
        assertThat(producer.send(message(topic)).getSendStatus()).isEqualTo(SendStatus.SEND_OK);

        try {
            broker.kill();
            assertThat(broker.latencyProxy().orElseThrow().openConnections()).isZero();
            long startNanos = System.nanoTime();
            assertThatThrownBy(() -> producer.send(message(topic))).as("a send to the killed broker")
                .isInstanceOf(Exception.class);
            Duration failedAfter = Duration.ofNanos(System.nanoTime() - startNanos);
            System.out.printf("[testkit] send to the killed broker behind the proxy failed after %d ms%n",
                failedAfter.toMillis());
            assertThat(failedAfter).isLessThan(SEND_TIMEOUT_FOR_KILL.dividedBy(2));
        } finally {
            broker.start();
        }

        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
            assertThat(producer.send(message(topic)).getSendStatus()).isEqualTo(SendStatus.SEND_OK));
    }

    private static Duration medianSendLatency(DefaultMQProducer producer, String topic, int sends)
        throws Exception {
        List<Duration> latencies = new ArrayList<>();
        for (int i = 0; i < sends; i++) {
            long startNanos = System.nanoTime();
            assertThat(producer.send(message(topic)).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            latencies.add(Duration.ofNanos(System.nanoTime() - startNanos));
        }
        latencies.sort(null);
        return latencies.get(sends / 2);
    }

    private static Message message(String topic) {
        return new Message(topic, "latency probe".getBytes(StandardCharsets.UTF_8));
    }

    private static double millis(Duration d) {
        return d.toNanos() / 1e6;
    }

    private static String uniqueName(String prefix) {
        return prefix + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);
    }
}
