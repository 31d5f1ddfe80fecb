package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.localstack.LocalPlatform;
import io.lanemq.proxy.protocol.Delivery;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A nack with a long retry delay parks the message in the group's retry topic as a broker timer message: its
 * queue's offset moves on at once, and the retry survives the proxy that parked it, coming back at its due time
 * with its attempt count.
 */
@Execution(ExecutionMode.CONCURRENT) // waits on its own topic and group: see junit-platform.properties
class ParkedRetryIT {
    private static final long RETRY_DELAY_MS = 4_000;

    @Test
    void aLongNackDelayWaitsOnTheBrokerAndOutlivesTheProxy() throws Exception {
        String group = LocalPlatform.unique("proxy-park");
        LocalPlatform platform = ProxyHarness.platform().addTopic("proxy-park", 1, 100, 0, group);
        String topic = platform.physicalTopic("proxy-park");
        DefaultMQAdminExt admin = ProxyHarness.adminOfClusterA(platform);
        try {
            List<String> ids = ProxyHarness.send(platform, "proxy-park", 5, i -> null);
            String nackedId = ids.get(2);
            long nackedAt;
            try (ConsumerProxyServer first = ConsumerProxyServer.start(ProxyHarness.config(platform,
                    b -> b.brokerRetryFrom(Duration.ofSeconds(2))));
                 TestConsumer nacker = ProxyHarness.consumer(first, "nacker", d -> !d.getMessageId().equals(nackedId))
                         .subscribe(ProxyHarness.APPLICATION, group, "proxy-park", 100)) {
                await().atMost(Duration.ofSeconds(60)).until(() -> nacker.deliveries.size() == 5);
                Delivery nacked = nacker.deliveries.stream().filter(d -> d.getMessageId().equals(nackedId)).findFirst().orElseThrow();
                nackedAt = System.nanoTime();
                nacker.nack(nacked, (int) RETRY_DELAY_MS);

                // In memory, the nacked message would keep the queue's offset at 2 until its retry was acked.
                await().atMost(Duration.ofSeconds(10)).until(() -> ProxyHarness.committed(admin, group, topic) == 5);
                assertThat(first.meters().counter(ProxyMetrics.PARKED_RETRIES, "topic", "proxy-park", "group", group).count())
                        .isEqualTo(1);
                assertThat(nacker.deliveries).as("no redelivery from memory").hasSize(5);
            }

            try (ConsumerProxyServer second = ConsumerProxyServer.start(ProxyHarness.config(platform, b -> b));
                 TestConsumer fresh = ProxyHarness.consumer(second, "fresh", d -> true)
                         .subscribe(ProxyHarness.APPLICATION, group, "proxy-park", 100)) {
                await().atMost(Duration.ofSeconds(30)).until(() -> fresh.acked.size() == 1);
                long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nackedAt);
                Delivery retry = fresh.acked.get(0);
                assertThat(retry.getMessageId()).isEqualTo(nackedId);
                assertThat(retry.getAttempt()).isEqualTo(2);
                assertThat(retry.getPhysicalTopic()).isEqualTo(topic);
                // The testkit's brokers keep timers to 100 ms.
                assertThat(waitedMs).isGreaterThanOrEqualTo(RETRY_DELAY_MS - 100);
                await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> fresh.deliveries.size() == 1);
            }
        } finally {
            admin.shutdown();
            platform.close();
        }
    }
}
