package io.lanemq.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Message;
import io.lanemq.api.MessageListener;
import io.lanemq.api.Producer;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.net.NetworkFaults;
import io.lanemq.testkit.net.NetworkFaults.Direction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A Spring Boot application with one {@code @LaneMqListener} starts while IDC B is silent (its name server and brokers
 * drop every packet, both ways, from before the start): the context starts, its health shows cluster B DOWN with the
 * listener's group in the reason and the application UP, the listener receives IDC A's messages at once and IDC B's
 * after the heal, without a restart. Runs in its own network namespace (bin/netns/bin/java).
 */
class StartDuringOutageFaultIT {
    @Test
    void anApplicationStartedWhileIdcBIsSilentConsumesIdcAAtOnceAndIdcBAfterTheHeal() throws Exception {
        try (NetworkFaults faults = NetworkFaults.open()) {
            String group = LocalPlatform.unique("outage-billing");
            String topic = LocalPlatform.unique("outage-orders");
            LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic(topic, 4, 50, 50, group);
            String clusterA = platform.idcA().clusterName();
            String clusterB = platform.idcB().clusterName();
            NetworkFaults.Fault fault = faults.drop("partition of " + platform.idcB().name(), platform.idcB().ports(), Direction.BOTH);

            long begin = System.nanoTime();
            try (ConfigurableApplicationContext context = new SpringApplicationBuilder(OutageApplication.class)
                    .web(WebApplicationType.NONE)
                    .properties("spring.main.banner-mode=off", "lanemq.application-name=outage-it",
                            "lanemq.config-location=file:" + platform.writeConfig(), "test.topic=" + topic, "test.group=" + group)
                    .run()) {
                long startedMillis = (System.nanoTime() - begin) / 1_000_000;
                OrdersListener listener = context.getBean(OrdersListener.class);
                Producer producer = context.getBean(Producer.class);
                HealthIndicator indicator = context.getBean("lanemqHealthIndicator", HealthIndicator.class);

                Health during = indicator.health();
                assertThat(during.getStatus()).as("IDC A serves: %s", during).isEqualTo(Status.UP);
                assertThat(clusterDetails(during, clusterB)).as(during.toString()).containsEntry("state", "DOWN");
                assertThat(String.valueOf(clusterDetails(during, clusterB).get("reason"))).contains("group '" + group + "'");

                long sending = System.nanoTime();
                for (int i = 0; i < 20; i++) {
                    producer.send(Message.builder(topic).body(("during-" + i).getBytes(StandardCharsets.UTF_8)).build());
                }
                await().atMost(Duration.ofSeconds(10)).until(() -> listener.fromCluster(clusterA) >= 20);
                long fromAMillis = (System.nanoTime() - sending) / 1_000_000;

                fault.heal();
                long healedAt = System.nanoTime();
                // Sends find B again through the failover's probe; the listener's consumer on B attaches in the background.
                await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100)).until(() -> {
                    producer.send(Message.builder(topic).body("after".getBytes(StandardCharsets.UTF_8)).build());
                    return listener.fromCluster(clusterB) > 0;
                });
                long fromBMillis = (System.nanoTime() - healedAt) / 1_000_000;
                Health after = indicator.health();
                assertThat(clusterDetails(after, clusterB)).as(after.toString()).containsEntry("state", "UP");
                System.out.printf("Spring Boot application started while IDC B silent: context up in %d ms, health UP with "
                                + "%s DOWN; 20 messages sent then consumed from IDC A in %d ms; first consumed from IDC B %d ms "
                                + "after the heal; %d packets dropped%n", startedMillis, clusterB, fromAMillis, fromBMillis,
                        fault.droppedPackets());
                assertThat(fromBMillis).as("first message from IDC B after the heal (ms)").isLessThanOrEqualTo(10_000);
            } finally {
                fault.heal();
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> clusterDetails(Health health, String cluster) {
        return (Map<String, Object>) ((Map<String, Object>) health.getDetails().get("clusters")).get(cluster);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class OutageApplication {
        @org.springframework.context.annotation.Bean
        OrdersListener ordersListener() {
            return new OrdersListener();
        }
    }

    @LaneMqListener(topic = "${test.topic}", group = "${test.group}")
    static class OrdersListener implements MessageListener {
        private final Map<String, AtomicInteger> byCluster = new ConcurrentHashMap<>();

        @Override
        public ConsumeResult consume(ReceivedMessage message) {
            byCluster.computeIfAbsent(message.cluster(), c -> new AtomicInteger()).incrementAndGet();
            return ConsumeResult.SUCCESS;
        }

        int fromCluster(String cluster) {
            AtomicInteger n = byCluster.get(cluster);
            return n == null ? 0 : n.get();
        }
    }
}
