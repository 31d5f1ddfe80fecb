package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.Consumer;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.Subscription;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.localstack.SendOutcome;
import io.lanemq.localstack.SendStream;
import io.lanemq.testkit.BrokerNode;
import io.lanemq.testkit.IdcSpec;
import io.lanemq.testkit.StackSpec;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import java.time.Duration;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * One broker of a two-broker cluster killed (SIGKILL) under a steady stream: its cluster's other broker takes its
 * sends (RocketMQ's own retry within the cluster, steered off the dead broker by its latency fault tolerance), so
 * the IDC keeps its share, the failover to the other IDC is not needed and the cluster's weight barely moves, and
 * nothing acknowledged is lost once the broker is back. An IDC is rarely lost whole; a broker is lost every week.
 */
@Isolated
class BrokerKillIT {
    @RegisterExtension
    static final GlobalMeters METRICS = new GlobalMeters();

    private static final int RATE = 1_000;
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void killingOneBrokerOfACluster_keepsItsSendsInThatCluster_andLosesNothingAcknowledged() throws Exception {
        StackSpec spec = StackSpec.builder()
                .idc(IdcSpec.builder("idc-a").clusterName("cluster-a").brokers(2).build())
                .idc(IdcSpec.of("idc-b", "cluster-b"))
                .build();
        String group = LocalPlatform.unique("broker-kill");
        try (LocalPlatform platform = LocalPlatform.start(spec).addTopic("checkout", 4, 50, 50, group)) {
            String clusterA = platform.idcA().clusterName();
            BrokerNode victim = platform.idcA().broker("idc-a-broker-1");
            Received received = new Received();
            try (MessagingClient client = platform.client("broker-kill-it");
                 Producer producer = client.createProducer(ProducerOptions.defaults());
                 Consumer consumer = client.subscribe(Subscription.builder("checkout", group).build(), received);
                 SendStream stream = new SendStream(producer, "checkout", RATE)) {
                // Precondition: both IDCs healthy and sharing the sends.
                HealthySplit.await(stream, clusterA, Duration.ofSeconds(45));
                double weightBefore = weight(clusterA);
                double failoversBefore = failovers(clusterA);

                long killedAt = stream.nowNanos();
                victim.kill();
                await().atMost(Duration.ofSeconds(30)).until(() -> stream.nowNanos() > killedAt + 3 * SECOND);
                double failoversAtThree = failovers(clusterA);
                // Sampled, not read once: a failure halves the weight and each success gives back 1%, so at hundreds
                // of sends a second a dip heals within a second and one reading would catch or miss it by chance.
                DoubleSummaryStatistics weights = new DoubleSummaryStatistics();
                while (stream.nowNanos() < killedAt + 8 * SECOND) {
                    weights.accept(weight(clusterA));
                    LockSupport.parkNanos(SECOND / 10); // the sampling period of the weight, not a wait for an outcome
                }
                List<SendOutcome> window = stream.startedBetween(killedAt + 3 * SECOND, killedAt + 7 * SECOND);
                double failoversAtSeven = failovers(clusterA);
                double share = SendStream.shareOf(window.stream().filter(SendOutcome::acknowledged).toList(), clusterA);
                System.out.printf("broker kill: the first 3 s cost %.0f failovers to the other IDC; 3-7 s after: %d sends, "
                                + "success %.4f, cluster A's share %.2f, failovers %.0f; cluster A's weight %.2f before, 3-8 s after: "
                                + "mean %.2f, lowest %.2f (%d samples)%n", failoversAtThree - failoversBefore, window.size(),
                        SendStream.successRate(window), share, failoversAtSeven - failoversAtThree, weightBefore,
                        weights.getAverage(), weights.getMin(), weights.getCount());

                // In-flight and failed sends count against the rate, so a stalled window cannot pass.
                assertThat(SendStream.successRate(window)).as("sends started 3-7 s after the kill that succeeded")
                        .isGreaterThanOrEqualTo(0.99);
                assertThat(share).as("cluster A's share of the acknowledged sends 3-7 s after the kill: its other "
                        + "broker takes the dead one's part").isBetween(0.35, 0.65);
                assertThat(failoversAtSeven - failoversAtThree).as("sends moved to the other IDC 3-7 s after the kill")
                        .isLessThanOrEqualTo(RATE * 4 * 0.01);
                assertThat(weights.getAverage()).as("cluster A's mean failover weight 3-8 s after the kill")
                        .isGreaterThanOrEqualTo(weightBefore * 0.8);

                victim.start();
                stream.close();
                await().atMost(Duration.ofSeconds(30)).until(stream::settled);
                Set<String> acknowledged = stream.acknowledgedIds();
                // Includes what the killed broker acknowledged before it died: consumed once it is back.
                await().atMost(Duration.ofSeconds(120)).until(() -> received.deliveriesById.keySet().containsAll(acknowledged));
                System.out.printf("broker kill: %d sends acknowledged, all consumed; %d failed; %d delivered twice%n",
                        acknowledged.size(), stream.all().size() - acknowledged.size(), received.duplicates());
            }
        }
    }

    private static double weight(String cluster) {
        return METRICS.find(SdkMetrics.CLUSTER_WEIGHT).tag(SdkMetrics.TAG_LOGIC_TOPIC, "checkout")
                .tag(SdkMetrics.TAG_CLUSTER, cluster).gauges().stream().mapToDouble(Gauge::value).min().orElseThrow();
    }

    private static double failovers(String cluster) {
        return METRICS.find(SdkMetrics.FAILOVERS).tag(SdkMetrics.TAG_CLUSTER, cluster).counters().stream()
                .mapToDouble(Counter::count).sum();
    }
}
