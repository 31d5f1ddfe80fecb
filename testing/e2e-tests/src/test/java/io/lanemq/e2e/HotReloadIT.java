package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.Consumer;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.Subscription;
import io.lanemq.core.client.CoreMessagingClient;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.localstack.SendStream;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.etcd.EtcdServer;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Platform configuration changed while producers and consumers run, from a watched file and
 * from a real etcd: the change is applied in place within a second, no send fails, nothing
 * acknowledged is lost, and a bad change is rejected while the old configuration keeps routing.
 * Alone, because it judges where sends go within a second; a logic topic's move, judged by what is
 * consumed, is {@link LogicTopicMoveIT}'s.
 */
@Isolated
class HotReloadIT {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    @RegisterExtension
    static final GlobalMeters METRICS = new GlobalMeters();

    @Test
    void weightChangeInAWatchedFileMovesTrafficWithinASecondWithoutFailedSendsOrLoss() throws Exception {
        String group = LocalPlatform.unique("reload-file");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("payout", 4, 50, 50, group);
        Received received = new Received();
        try (MessagingClient client = platform.client("reload-file-it")) {
            followsWeightChange(client, received, group, "payout", platform.idcB().clusterName(), platform::writeConfig,
                    () -> platform.reweight("payout", 100, 0));
        }
    }

    @Test
    void weightChangePutInEtcdMovesTrafficWithinASecondWithoutFailedSendsOrLoss() throws Exception {
        String group = LocalPlatform.unique("reload-etcd");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("refund", 4, 50, 50, group);
        String key = "/lanemq/platform/" + LocalPlatform.unique("reload-etcd");
        Received received = new Received();
        try (EtcdServer etcd = EtcdServer.started()) {
            etcd.put(key, platform.yaml());
            String location = "etcd://" + etcd.endpoint() + key;
            try (MessagingClient client = MessagingClient.create(ClientOptions.builder("reload-etcd-it").configLocation(location).build())) {
                followsWeightChange(client, received, group, "refund", platform.idcB().clusterName(),
                        () -> etcd.put(key, platform.yaml()), () -> platform.reweight("refund", 100, 0));
            }
        }
    }

    private static void followsWeightChange(MessagingClient client, Received received, String group, String topic, String drained,
                                            Runnable publish, Runnable change) throws Exception {
        try (Producer producer = client.createProducer(ProducerOptions.defaults());
             Consumer consumer = client.subscribe(Subscription.builder(topic, group).build(), received);
             SendStream stream = new SendStream(producer, topic, 1_000)) {
            // Precondition, not the subject: both IDCs take sends before the change.
            await().atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(250)).until(() -> {
                long now = stream.nowNanos();
                double share = SendStream.shareOf(stream.startedBetween(now - 2 * SECOND, now), drained);
                return now > 3 * SECOND && share >= 0.25 && share <= 0.75;
            });

            change.run();
            long publishedAt = stream.nowNanos();
            publish.run();
            await().atMost(Duration.ofSeconds(20)).until(() -> stream.nowNanos() > publishedAt + 4 * SECOND);
            assertThat(SendStream.shareOf(stream.startedBetween(publishedAt + SECOND, publishedAt + 4 * SECOND), drained))
                    .as("share of the drained cluster from 1 s after the change").isZero();
            System.out.printf("reload: last send to the drained cluster started %d ms after the change was published%n",
                    lastSendTo(stream, drained, publishedAt));

            stream.close();
            await().atMost(Duration.ofSeconds(30)).until(stream::settled);
            assertThat(SendStream.successRate(stream.all())).as("no send fails during the switch").isEqualTo(1.0);
            Set<String> acknowledged = stream.acknowledgedIds();
            await().atMost(Duration.ofSeconds(60)).until(() -> received.deliveriesById.keySet().containsAll(acknowledged));
        }
    }

    private static long lastSendTo(SendStream stream, String cluster, long from) {
        return stream.startedBetween(from, Long.MAX_VALUE).stream().filter(o -> cluster.equals(o.cluster()))
                .mapToLong(o -> (o.startNanos() - from) / 1_000_000).max().orElse(-1);
    }

    @Test
    void badChangeIsRejectedWithKeyAndLineAndTheOldConfigurationKeepsRouting() throws Exception {
        String group = LocalPlatform.unique("reload-bad");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("invoice", 4, 100, 0, group);
        try (MessagingClient client = platform.client("reload-bad-it");
             Producer producer = client.createProducer(ProducerOptions.defaults())) {
            CoreMessagingClient core = (CoreMessagingClient) client;
            double rejectedBefore = rejectedReloads();
            java.nio.file.Path file = platform.writeConfig();
            Files.writeString(file, platform.yaml().replace("weight: 100", "weight: -1").replace("weight: 0", "weight: -1"));

            await().atMost(Duration.ofSeconds(5)).until(() -> core.lastReloadRejection().isPresent());
            assertThat(core.lastReloadRejection().orElseThrow().getMessage())
                    .matches("(?s).*topics\\.invoice\\.routes\\[0]\\.weight \\(line \\d+\\): must be >= 0.*");
            assertThat(rejectedReloads()).isGreaterThan(rejectedBefore);
            assertThat(METRICS.get(SdkMetrics.CONFIG_LAST_RELOAD_FAILED).tag(SdkMetrics.TAG_APPLICATION, "reload-bad-it")
                    .gauge().value()).isEqualTo(1.0);
            assertThat(producer.send(io.lanemq.api.Message.builder("invoice").body(new byte[] {1}).build()).cluster())
                    .as("the last good configuration still routes").isEqualTo(platform.idcA().clusterName());

            platform.writeConfig();
            await().atMost(Duration.ofSeconds(5)).until(() -> core.lastReloadRejection().isEmpty());
        }
    }

    private static double rejectedReloads() {
        return METRICS.find(SdkMetrics.CONFIG_RELOADS).tag(SdkMetrics.TAG_APPLICATION, "reload-bad-it")
                .tag(SdkMetrics.TAG_OUTCOME, "rejected").counters().stream()
                .mapToDouble(c -> c.count()).sum();
    }
}
