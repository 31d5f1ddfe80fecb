package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.Status;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.proxy.protocol.Delivery;
import io.micrometer.core.instrument.Gauge;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Acks out of order never move a queue's committed offset past an unacked message; a graceful
 * restart delivers again exactly the messages that were never acked.
 */
@Execution(ExecutionMode.CONCURRENT) // waits on its own topic and group: see junit-platform.properties
class OutOfOrderAckIT {

    @Test
    void committedOffsetStaysBelowTheLowestUnackedAndARestartRedeliversOnlyTheUnacked() throws Exception {
        String group = LocalPlatform.unique("proxy-ooo");
        LocalPlatform platform = ProxyHarness.platform().addTopic("proxy-ooo", 1, 100, 0, group);
        String topic = platform.physicalTopic("proxy-ooo");
        DefaultMQAdminExt admin = ProxyHarness.adminOfClusterA(platform);
        try {
            List<String> ids = ProxyHarness.send(platform, "proxy-ooo", 20, i -> null);
            Set<String> held = Set.of(ids.get(3), ids.get(11));
            ConsumerProxyServer first = ConsumerProxyServer.start(ProxyHarness.config(platform, b -> b.drainTimeout(Duration.ofSeconds(1))));
            TestConsumer picky = ProxyHarness.consumer(first, "picky", d -> false).subscribe(ProxyHarness.APPLICATION, group, "proxy-ooo", 100);
            try {
                await().atMost(Duration.ofSeconds(60)).until(() -> picky.deliveries.size() == 20);
                List<Delivery> newestFirst = new ArrayList<>(picky.deliveries);
                newestFirst.sort(Comparator.comparingLong(Delivery::getQueueOffset).reversed());
                for (Delivery delivery : newestFirst) {
                    if (!held.contains(delivery.getMessageId())) {
                        picky.ack(delivery);
                    }
                }
                // Several commit intervals pass; the offset sits at message 3, the lowest unacked, all along.
                await().atMost(Duration.ofSeconds(10)).until(() -> ProxyHarness.committed(admin, group, topic) == 3);
                await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> ProxyHarness.committed(admin, group, topic) == 3);
                // The broker's lag counts from the committed offset: messages 3..19, acked or not, are still owed.
                await().atMost(Duration.ofSeconds(10)).until(() -> lag(first, group) == 17);
            } finally {
                first.close();
            }
            assertThat(picky.statuses).extracting(io.lanemq.proxy.protocol.Status::getCode)
                    .contains(io.lanemq.proxy.protocol.Status.Code.DRAINING);
            await().atMost(Duration.ofSeconds(5)).until(() -> picky.ended.get() != null);
            assertThat(picky.ended.get().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
            assertThat(ProxyHarness.committed(admin, group, topic)).as("the two unacked moved to the retry topic, so the queue is committed to its end")
                    .isEqualTo(20);
            picky.close();

            try (ConsumerProxyServer second = ConsumerProxyServer.start(ProxyHarness.config(platform, b -> b));
                 TestConsumer fresh = ProxyHarness.consumer(second, "fresh", d -> true)
                         .subscribe(ProxyHarness.APPLICATION, group, "proxy-ooo", 100)) {
                await().atMost(Duration.ofSeconds(60)).until(() -> fresh.acked.size() >= 2);
                await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() -> fresh.acked.size() == 2);
                assertThat(fresh.acked).extracting(Delivery::getMessageId).containsExactlyInAnyOrderElementsOf(held);
                assertThat(fresh.acked).extracting(Delivery::getAttempt).containsOnly(2);
                assertThat(fresh.acked).extracting(Delivery::getPhysicalTopic).containsOnly(topic);
                await().atMost(Duration.ofSeconds(10)).until(() -> lag(second, group) == 0);
            }
        } finally {
            admin.shutdown();
            platform.close();
        }
    }

    /** The proxy's lag gauges of the group, summed over clusters (NaN while one is unknown). */
    private static double lag(ConsumerProxyServer proxy, String group) {
        return proxy.meters().find(ProxyMetrics.LAG).tag("group", group).gauges().stream().mapToDouble(Gauge::value).sum();
    }
}
