package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.Consumer;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.Subscription;
import io.lanemq.config.ConsumptionMode;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.RocketMqStack;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * {@link Consumer#pause()} on real brokers: a paused consumer receives nothing while sends go on to both clusters,
 * and after {@link Consumer#resume()} every message sent meanwhile, once.
 */
@Execution(ExecutionMode.CONCURRENT)
class PauseResumeIT {
    private static final int BEFORE = 20;
    private static final int DURING = 300;
    /** How long nothing may arrive after the last send of the pause: beyond a long poll's answer and a pull's retry. */
    private static final Duration QUIET = Duration.ofMillis(1_500);

    @Test
    void aPausedDirectConsumerReceivesNothingWhileSendsGoOnAndEverythingOnceAfterResume() throws Exception {
        String group = LocalPlatform.unique("pause-direct");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("pause-direct", 2, 50, 50, group);
        try (MessagingClient client = platform.client("pause-direct-it")) {
            pauseAndResume(client, platform, "pause-direct", group, "DIRECT");
        } finally {
            platform.close();
        }
    }

    @Test
    void aPausedProxyModeConsumerReceivesNothingWhileSendsGoOnAndEverythingOnceAfterResume() throws Exception {
        String group = LocalPlatform.unique("pause-proxy");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("pause-proxy", 2, 50, 50, group);
        try (ProxyFixture proxy = ProxyFixture.start(platform)) {
            platform.consumerMode("pause-proxy", group, ConsumptionMode.PROXY);
            try (MessagingClient client = proxy.client(ProxyFixture.TOKEN)) {
                pauseAndResume(client, platform, "pause-proxy", group, "PROXY");
            }
        } finally {
            platform.close();
        }
    }

    private static void pauseAndResume(MessagingClient client, LocalPlatform platform, String topic, String group, String mode)
            throws Exception {
        Received received = new Received();
        try (Producer producer = client.createProducer(ProducerOptions.defaults());
             Consumer consumer = client.subscribe(Subscription.builder(topic, group).build(), received)) {
            Set<String> before = ProxyModeIT.sendAll(producer, topic, BEFORE);
            await().atMost(Duration.ofSeconds(60)).until(() -> received.deliveriesById.keySet().containsAll(before));

            consumer.pause();
            long atPause = received.deliveries();
            long pausedAt = System.nanoTime();
            Set<String> during = ProxyModeIT.sendAll(producer, topic, DURING);
            await().during(QUIET).atMost(QUIET.plusSeconds(10)).until(() -> received.deliveries() == atPause);
            double pausedSeconds = (System.nanoTime() - pausedAt) / 1e9;
            assertThat(received.deliveries() - atPause).as("deliveries while paused").isZero();

            long resumedAt = System.nanoTime();
            consumer.resume();
            Set<String> all = new HashSet<>(before);
            all.addAll(during);
            await().atMost(Duration.ofSeconds(60)).until(() -> received.deliveriesById.keySet().containsAll(all));
            double drainSeconds = (System.nanoTime() - resumedAt) / 1e9;
            // A copy would arrive just after the last original: look once more, a moment later.
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> received.deliveries() == all.size());

            Set<String> clustersDuring = new HashSet<>();
            received.all.stream().filter(m -> during.contains(m.messageId())).map(ReceivedMessage::cluster).forEach(clustersDuring::add);
            System.out.printf("PauseResumeIT %s: %d sent while paused (%.1f s), 0 received then; all %d received %.2f s after"
                    + " resume; lost %d, duplicated %d; clusters %s%n", mode, during.size(), pausedSeconds, all.size(),
                    drainSeconds, all.size() - received.distinct(), received.duplicates(), received.byCluster);
            assertThat(received.distinct()).as("lost: none").isEqualTo(all.size());
            assertThat(received.duplicates()).as("duplicated: none").isZero();
            assertThat(clustersDuring).as("the pause held both clusters")
                    .containsExactlyInAnyOrder(platform.idcA().clusterName(), platform.idcB().clusterName());
            assertThat(received.all).extracting(ReceivedMessage::deliveryAttempt).as("nothing redelivered").containsOnly(1);
        }
    }
}
