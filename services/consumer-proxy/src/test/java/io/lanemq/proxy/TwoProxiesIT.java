package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.localstack.LocalPlatform;
import io.lanemq.proxy.protocol.Delivery;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** Two proxy instances serving one group split its queues through RocketMQ's rebalancing; together they deliver everything. */
@Execution(ExecutionMode.CONCURRENT) // waits on its own topic and group: see junit-platform.properties
class TwoProxiesIT {

    @Test
    void twoProxiesShareAGroupsQueuesAndDeliverEveryMessage() throws Exception {
        String group = LocalPlatform.unique("proxy-two");
        LocalPlatform platform = ProxyHarness.platform().addTopic("proxy-two", 4, 50, 50, group);
        try (ConsumerProxyServer first = ConsumerProxyServer.start(ProxyHarness.config(platform, b -> b.proxyId("first")));
             ConsumerProxyServer second = ConsumerProxyServer.start(ProxyHarness.config(platform, b -> b.proxyId("second")));
             TestConsumer viaFirst = ProxyHarness.consumer(first, "via-first", d -> true)
                     .subscribe(ProxyHarness.APPLICATION, group, "proxy-two", 64);
             TestConsumer viaSecond = ProxyHarness.consumer(second, "via-second", d -> true)
                     .subscribe(ProxyHarness.APPLICATION, group, "proxy-two", 64)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> viaFirst.subscribed.get() != null && viaSecond.subscribed.get() != null);
            // The split must have settled on both clusters before sending: a queue that moves while its messages are
            // in flight is read again from its committed offset by the new owner (at-least-once), which this test
            // would count as served twice. Waiting on cluster A's members alone let cluster B move two queues
            // mid-test (CI: 414 deliveries for 400 messages).
            await().atMost(Duration.ofSeconds(30)).until(() -> queuesHeld(first) == 4 && queuesHeld(second) == 4
                    && heldOnEveryCluster(first, 2) && heldOnEveryCluster(second, 2));
            List<String> ids = ProxyHarness.send(platform, "proxy-two", 400, i -> null);

            await().atMost(Duration.ofSeconds(60)).until(() -> ackedIds(viaFirst, viaSecond).containsAll(ids));
            System.out.printf("TwoProxiesIT: %d messages, via first %d, via second %d%n", ids.size(),
                    viaFirst.acked.size(), viaSecond.acked.size());
            assertThat(viaFirst.acked).isNotEmpty();
            assertThat(viaSecond.acked).isNotEmpty();
            assertThat(viaFirst.acked.size() + viaSecond.acked.size()).as("no queue served twice").isEqualTo(ids.size());
            assertThat(viaFirst.subscribed.get().getSubscribed().getProxyId()).isEqualTo("first");
        } finally {
            platform.close();
        }
    }

    @Test
    void aProxyWhoseConsumersLeftReleasesTheGroupsQueuesToTheOther() throws Exception {
        String group = LocalPlatform.unique("proxy-idle");
        LocalPlatform platform = ProxyHarness.platform().addTopic("proxy-idle", 4, 50, 50, group);
        try (ConsumerProxyServer leaving = ConsumerProxyServer.start(ProxyHarness.config(platform,
                     b -> b.proxyId("leaving").idleGroupTimeout(Duration.ofSeconds(1))));
             ConsumerProxyServer staying = ConsumerProxyServer.start(ProxyHarness.config(platform, b -> b.proxyId("staying")));
             TestConsumer viaStaying = ProxyHarness.consumer(staying, "via-staying", d -> true)
                     .subscribe(ProxyHarness.APPLICATION, group, "proxy-idle", 64)) {
            try (TestConsumer viaLeaving = ProxyHarness.consumer(leaving, "via-leaving", d -> true)
                    .subscribe(ProxyHarness.APPLICATION, group, "proxy-idle", 64)) {
                await().atMost(Duration.ofSeconds(30)).until(() -> groupMembers(platform, group) == 2);
            }
            // The leaving proxy's only consumer is gone: after the idle timeout its RocketMQ consumers leave the group.
            await().atMost(Duration.ofSeconds(30)).until(() -> groupMembers(platform, group) == 1);
            List<String> ids = ProxyHarness.send(platform, "proxy-idle", 200, i -> null);
            await().atMost(Duration.ofSeconds(60)).until(() -> ackedIds(viaStaying).containsAll(ids));
            assertThat(leaving.meters().find(ProxyMetrics.HELD).gauges()).as("the idle group's gauges are gone").isEmpty();
        } finally {
            platform.close();
        }
    }

    /** Queues of the topic the instance reads, over both clusters. */
    private static double queuesHeld(ConsumerProxyServer proxy) {
        return proxy.meters().find(ProxyMetrics.QUEUES).gauges().stream().mapToDouble(g -> g.value()).sum();
    }

    private static boolean heldOnEveryCluster(ConsumerProxyServer proxy, int queues) {
        var gauges = proxy.meters().find(ProxyMetrics.QUEUES).gauges();
        return gauges.size() == 2 && gauges.stream().allMatch(g -> g.value() == queues);
    }

    /** Consumer clients of the group on cluster A, as the broker sees them. */
    private static int groupMembers(LocalPlatform platform, String group) throws Exception {
        org.apache.rocketmq.tools.admin.DefaultMQAdminExt admin = new org.apache.rocketmq.tools.admin.DefaultMQAdminExt();
        admin.setNamesrvAddr(platform.idcA().nameServerAddress());
        admin.setInstanceName(LocalPlatform.unique("two-admin"));
        admin.start();
        try {
            return admin.examineConsumerConnectionInfo(group).getConnectionSet().size();
        } catch (Exception e) {
            return 0;
        } finally {
            admin.shutdown();
        }
    }

    private static Set<String> ackedIds(TestConsumer... consumers) {
        Set<String> ids = new HashSet<>();
        for (TestConsumer consumer : consumers) {
            consumer.acked.stream().map(Delivery::getMessageId).forEach(ids::add);
        }
        return ids;
    }
}
