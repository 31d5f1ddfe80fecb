package io.lanemq.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A broker started with the tuned profile runs with its settings and stores and delivers small and large messages. */
class BrokerProfileIT {

    private static final String TOPIC = "it-tuned";
    // Larger than the 4 KB compression threshold and than a page: it travels through the zero-copy pull path.
    private static final int LARGE_BYTES = 100 * 1024;

    private static RocketMqStack stack;

    @BeforeAll
    static void startTunedStack() {
        stack = ProxiedTunedStack.get();
        stack.createTopic("cluster-a", TOPIC, 4);
    }

    @Test
    void brokerRunsWithTheProfilesSettings() throws Exception {
        DefaultMQAdminExt admin = new DefaultMQAdminExt();
        admin.setNamesrvAddr(stack.idc("idc-a").nameServerAddress());
        admin.setInstanceName("it-tuned-admin");
        admin.start();
        try {
            Properties running = admin.getBrokerConfig(stack.idc("idc-a").brokers().get(0).address());

            BrokerProfile.TUNED.properties().forEach((name, value) ->
                assertThat(running.getProperty(name)).as("running broker's %s", name).isEqualTo(value));
            assertThat(running.getProperty("brokerRole")).as("skipped: no slave in the testkit")
                .isEqualTo("ASYNC_MASTER");
        } finally {
            admin.shutdown();
        }
    }

    @Test
    void tunedBrokerStoresAndDeliversSmallAndLargeMessages() throws Exception {
        Idc idc = stack.idc("idc-a");
        try (RocketMqClients clients = new RocketMqClients()) {
            DefaultMQProducer producer = clients.producer(idc, "it-tuned-producer");
            producer.setCompressMsgBodyOverHowmuch(Integer.MAX_VALUE);
            Set<String> sent = ConcurrentHashMap.newKeySet();
            for (int i = 0; i < 20; i++) {
                String key = (i % 5 == 0 ? "large-" : "small-") + i;
                byte[] body = i % 5 == 0 ? new byte[LARGE_BYTES] : key.getBytes(StandardCharsets.UTF_8);
                Message message = new Message(TOPIC, body);
                message.setKeys(key);
                assertThat(producer.send(message).getSendStatus()).as("send of %s", key).isEqualTo(SendStatus.SEND_OK);
                sent.add(key);
            }

            Set<String> received = ConcurrentHashMap.newKeySet();
            clients.consumer(idc, "it-tuned-consumer", TOPIC, received);

            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(received).containsAll(sent));
        }
    }
}
