package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.localstack.SendStream;
import io.lanemq.testkit.IdcSpec;
import io.lanemq.testkit.StackSpec;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A broker that answers 100 ms slower than its peer (through the testkit's latency proxy) loses
 * its share of sends although no send fails, and regains it once it is fast again. Runs on its
 * own stack, because only there is IDC B behind the proxy. Bounds are generous; the P5
 * benchmark reports the figures.
 */
@Isolated
class SlowBrokerIT {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void slowBrokerLosesItsShareWithoutFailedSendsAndRegainsItWhenFastAgain() throws Exception {
        StackSpec spec = StackSpec.builder()
                .idc(IdcSpec.of("idc-a", "cluster-a"))
                .idc(IdcSpec.builder("idc-b").clusterName("cluster-b").latencyProxy(true).build())
                .build();
        try (LocalPlatform platform = LocalPlatform.start(spec)) {
            platform.addTopic("quote", 4, 50, 50);
            String slowCluster = platform.idcB().clusterName();
            try (MessagingClient client = platform.client("slow-broker-it");
                 Producer producer = client.createProducer(ProducerOptions.defaults());
                 SendStream stream = new SendStream(producer, "quote", 1_000)) {
                // Precondition, not the subject: both IDCs healthy and sharing the sends. Generous, because an
                // overloaded machine (stack start took 30 s in one CI run) can take that long to settle.
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250)).until(() -> {
                    long now = stream.nowNanos();
                    double share = SendStream.shareOf(stream.startedBetween(now - 3 * SECOND, now - SECOND), slowCluster);
                    return now > 4 * SECOND && share >= 0.30 && share <= 0.70;
                });

                long slowedAt = stream.nowNanos();
                platform.idcB().setBrokerDelay(Duration.ofMillis(100));
                await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(250)).until(() -> {
                    long now = stream.nowNanos();
                    return now - slowedAt > 2 * SECOND
                            && SendStream.shareOf(stream.startedBetween(now - 2 * SECOND, now - SECOND), slowCluster) <= 0.10;
                });
                System.out.printf("slow broker: share <= 10%% within %d ms of the delay%n", (stream.nowNanos() - slowedAt) / 1_000_000);

                long healedAt = stream.nowNanos();
                platform.idcB().setBrokerDelay(Duration.ZERO);
                await().atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(250)).until(() -> {
                    long now = stream.nowNanos();
                    return SendStream.shareOf(stream.startedBetween(now - 2 * SECOND, now - SECOND), slowCluster) >= 0.30;
                });
                System.out.printf("slow broker healed: share back >= 30%% within %d ms%n", (stream.nowNanos() - healedAt) / 1_000_000);

                stream.close();
                await().atMost(Duration.ofSeconds(30)).until(stream::settled);
                assertThat(SendStream.successRate(stream.startedBetween(slowedAt, Long.MAX_VALUE)))
                        .as("a slow broker fails no send").isEqualTo(1.0);
            }
        }
    }
}
