package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.Consumer;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.SeekResult;
import io.lanemq.api.Subscription;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.RocketMqStack;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * {@link MessagingClient#seek} on real brokers, both clusters: a running group moved back to a time gets every message
 * since then again (its members are told and move without a restart); a group whose only member has closed, moved to
 * the end, starts after what waited.
 */
@Execution(ExecutionMode.CONCURRENT)
class SeekIT {
    private static final int MESSAGES = 20;

    @Test
    void aRunningGroupMovedBackToATimeGetsEveryMessageSinceThenAgainOnBothClusters() throws Exception {
        String group = LocalPlatform.unique("seek-time");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("seek-time", 2, 50, 50, group);
        Received received = new Received();
        try (MessagingClient client = platform.client("seek-time-it");
             Producer producer = client.createProducer(ProducerOptions.defaults());
             Consumer consumer = client.subscribe(Subscription.builder("seek-time", group).build(), received)) {
            Instant before = Instant.now().minusMillis(1);
            Set<String> sent = ProxyModeIT.sendAll(producer, "seek-time", MESSAGES);
            await().atMost(Duration.ofSeconds(60)).until(() -> received.deliveriesById.keySet().containsAll(sent));
            // A broker refuses a reset until the group has committed on each of its queues (RocketMQ: "group not
            // exist"), which the consumer does within its persist interval: seek again until every cluster took it.
            long seekAt = System.nanoTime();
            AtomicReference<SeekResult> seek = new AtomicReference<>();
            await().pollInterval(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(20))
                    .until(() -> seek.updateAndGet(r -> seekOrNull(client, group, before)) != null && seek.get().complete());
            SeekResult result = seek.get();

            assertThat(result.complete()).as("every cluster reset: %s", result).isTrue();
            assertThat(result.clusters()).extracting(SeekResult.Cluster::cluster)
                    .containsExactlyInAnyOrder(platform.idcA().clusterName(), platform.idcB().clusterName());
            assertThat(result.clusters()).allSatisfy(cluster -> assertThat(cluster.membersTold()).as("live members told").isTrue());
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> sent.stream().allMatch(id -> received.deliveriesById.get(id).get() >= 2));
            System.out.printf("SeekIT: %d messages replayed on both clusters %.1f s after the seek (%s)%n", sent.size(),
                    (System.nanoTime() - seekAt) / 1e9, result.clusters());
        } finally {
            platform.close();
        }
    }

    private static SeekResult seekOrNull(MessagingClient client, String group, Instant to) {
        try {
            return client.seek("seek-time", group, Optional.of(to));
        } catch (io.lanemq.api.MessagingException e) {
            return null;
        }
    }

    @Test
    void aGroupWithNoMemberMovedToTheLatestOffsetsSkipsWhatWaited() throws Exception {
        String group = LocalPlatform.unique("seek-latest");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("seek-latest", 2, 50, 50, group);
        Received first = new Received();
        try (MessagingClient client = platform.client("seek-latest-it");
             Producer producer = client.createProducer(ProducerOptions.defaults())) {
            try (Consumer consumer = client.subscribe(Subscription.builder("seek-latest", group).build(), first)) {
                Set<String> sent = ProxyModeIT.sendAll(producer, "seek-latest", MESSAGES);
                await().atMost(Duration.ofSeconds(60)).until(() -> first.deliveriesById.keySet().containsAll(sent));
            }
            ProxyModeIT.sendAll(producer, "seek-latest", MESSAGES);

            SeekResult result = client.seek("seek-latest", group, Optional.empty());

            assertThat(result.complete()).as("every cluster reset: %s", result).isTrue();
            // membersTold is the brokers' view: one may still list the member that just closed; the offsets are written anyway.
            AtomicInteger skippedSeen = new AtomicInteger();
            Received second = new Received();
            try (Consumer consumer = client.subscribe(Subscription.builder("seek-latest", group).build(), second)) {
                Set<String> after = ProxyModeIT.sendAll(producer, "seek-latest", MESSAGES);
                await().atMost(Duration.ofSeconds(60)).until(() -> second.deliveriesById.keySet().containsAll(after));
                skippedSeen.set((int) second.deliveriesById.keySet().stream().filter(id -> !after.contains(id)).count());
            }
            assertThat(skippedSeen).as("messages sent before the seek to the end, delivered after it").hasValue(0);
        } finally {
            platform.close();
        }
    }
}
