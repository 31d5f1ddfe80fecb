package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.Consumer;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.Subscription;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.localstack.SendLog;
import io.lanemq.localstack.SendOutcome;
import io.lanemq.localstack.SyncSenders;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.net.NetworkFaults;
import io.lanemq.testkit.net.NetworkFaults.Direction;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * IDC B fails silently under a fixed pool of synchronous senders: every packet to and from its name server
 * and broker is dropped (nothing refuses, nothing resets) for 20 s. The senders must move to IDC A within
 * 3 s at >= 90% of their healthy rate, nothing acknowledged may be lost, and no caller may wait longer than
 * the send timeout. Runs in its own network namespace (bin/netns/bin/java), where the rules live.
 */
class IdcPartitionFaultIT {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final int SENDERS = 4;
    private static final int PARTITION_SECONDS = 20;

    @Test
    void silentPartitionOfAnIdcMovesSyncSendersToTheOtherWithinThreeSeconds() throws Exception {
        String group = LocalPlatform.unique("partition");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("checkout", 8, 50, 50, group);
        Idc victim = platform.idcB();
        Received received = new Received();
        long sendTimeoutMillis = 5_000;

        try (NetworkFaults faults = NetworkFaults.open();
             MessagingClient client = platform.client("partition-it");
             Producer producer = client.createProducer(ProducerOptions.defaults());
             Consumer consumer = client.subscribe(Subscription.builder("checkout", group).build(), received)) {
            SyncSenders senders = new SyncSenders(producer, "checkout", SENDERS);
            SendLog log = senders.log();
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> {
                long now = log.nowNanos();
                List<SendOutcome> recent = log.startedBetween(now - 4 * SECOND, now - SECOND);
                double share = SendLog.shareOf(recent, victim.clusterName());
                return now > 5 * SECOND && SendLog.successRate(recent) == 1.0 && share >= 0.35 && share <= 0.65;
            });
            long cutAt = log.nowNanos();
            double healthyRate = log.startedBetween(cutAt - 3 * SECOND, cutAt).size() / 3.0;

            NetworkFaults.Fault partition = faults.drop("partition of " + victim.name(), victim.ports(), Direction.BOTH);
            await().atMost(Duration.ofSeconds(PARTITION_SECONDS + 10))
                    .until(() -> log.nowNanos() > cutAt + PARTITION_SECONDS * SECOND);
            partition.heal();
            long healedAt = log.nowNanos();
            long[] perSecond = log.startsPerSecond(cutAt - 3 * SECOND, healedAt);
            System.out.printf("silent partition of %s: healthy %.0f sends/s; sends started per second from 3 s before: %s; "
                    + "dropped %d packets%n", victim.name(), healthyRate, Arrays.toString(perSecond), partition.droppedPackets());

            List<SendOutcome> afterThree = log.startedBetween(cutAt + 3 * SECOND, healedAt);
            long[] fromThree = log.startsPerSecond(cutAt + 3 * SECOND, healedAt);
            assertThat(partition.droppedPackets()).as("packets the partition dropped").isPositive();
            // Each second on its own: a total over the window would let a fast end hide a stall.
            assertThat(Arrays.stream(fromThree).min().orElse(0)).as("slowest second of sends started from 3 s into the "
                    + "partition (per second: %s), healthy %.0f/s", Arrays.toString(fromThree), healthyRate)
                    .isGreaterThanOrEqualTo((long) (0.9 * healthyRate));
            assertThat(SendLog.successRate(afterThree)).as("sends started from 3 s into the partition that succeeded")
                    .isGreaterThanOrEqualTo(0.99);

            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).until(() -> {
                long now = log.nowNanos();
                return SendLog.shareOf(log.startedBetween(now - 2 * SECOND, now - SECOND), victim.clusterName()) >= 0.35;
            });
            System.out.printf("healed: %s's share back above 35%% %d ms after the heal%n", victim.name(),
                    (log.nowNanos() - healedAt) / 1_000_000);

            senders.close();
            long longest = log.longestMillis();
            Set<String> acknowledged = log.acknowledgedIds();
            await().atMost(Duration.ofSeconds(120)).until(() -> received.deliveriesById.keySet().containsAll(acknowledged));
            System.out.printf("silent partition: %d sends, %d acknowledged, all consumed, %d failed, %d delivered twice, "
                    + "longest call %d ms%n", log.all().size(), acknowledged.size(),
                    log.all().size() - acknowledged.size(), received.duplicates(), longest);
            assertThat(longest).as("longest blocked send (ms)").isLessThanOrEqualTo(sendTimeoutMillis + 500);
        }
    }
}
