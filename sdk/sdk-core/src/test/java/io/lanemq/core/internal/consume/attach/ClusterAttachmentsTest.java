package io.lanemq.core.internal.consume.attach;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.ClientHealth;
import io.lanemq.api.ClientHealth.ClusterState;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.SendFailedException;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.Backoff;
import io.lanemq.support.FakeClock;
import io.lanemq.support.attach.AttachPolicy;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The client's record of unattached consumers, on a fake clock: budget, back-off, health and meter. */
class ClusterAttachmentsTest {
    private static final MessagingException UNREACHABLE = new SendFailedException("connect to null failed", null, "cluster-b", null);
    private static final MessagingException REFUSED = new InvalidConfigurationException("NO_PERMISSION: wrong keys [cluster=cluster-b]");
    private static final AttachPolicy POLICY = new AttachPolicy(Duration.ofMillis(1500),
            Backoff.exact(Duration.ofMillis(250), Duration.ofSeconds(2)), Backoff.exact(Duration.ofSeconds(10), Duration.ofMinutes(1)),
            5, Optional.empty());

    private final FakeClock clock = new FakeClock();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ClusterAttachments attachments = new ClusterAttachments(POLICY, new SdkMetrics(registry, "app"), clock, clock);

    @Test
    void theBudgetLetsAttemptsPerSecondThroughAtOnceAndSpacesTheRestEvenly() {
        for (int i = 0; i < 5; i++) {
            assertThat(attachments.reserve()).as("attempt %d of a burst within the budget", i).isZero();
        }
        assertThat(attachments.reserve()).as("the sixth waits for a token: 1/5 s").isEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
        assertThat(attachments.reserve()).as("the seventh is reserved behind it").isEqualTo(TimeUnit.MILLISECONDS.toNanos(400));
        clock.advance(Duration.ofSeconds(10));
        assertThat(attachments.reserve()).as("a quiet while refills the bucket, no more than its size").isZero();
        for (int i = 0; i < 4; i++) {
            attachments.reserve();
        }
        assertThat(attachments.reserve()).isPositive();
    }

    @Test
    void anUnreachableClusterIsRetriedSoonAndARefusingOneSlowly() {
        assertThat(attachments.retryDelay(1, UNREACHABLE)).isEqualTo(Duration.ofMillis(250));
        assertThat(attachments.retryDelay(10, UNREACHABLE)).as("capped, so a healed cluster is tried within 2 s").isEqualTo(Duration.ofSeconds(2));
        assertThat(attachments.retryDelay(1, REFUSED)).isEqualTo(Duration.ofSeconds(10));
        assertThat(ClusterAttachments.curable(REFUSED)).isFalse();
        assertThat(ClusterAttachments.curable(UNREACHABLE)).isTrue();
    }

    @Test
    void aClusterWithAnUnattachedConsumerIsDownWithWhoSinceWhenAndWhyUntilItAttaches() {
        List<ClientHealth.Cluster> bySends = List.of(
                new ClientHealth.Cluster("cluster-a", "idc-a", ClusterState.UP, Optional.empty()),
                new ClientHealth.Cluster("cluster-b", "idc-b", ClusterState.UNKNOWN, Optional.of("not judged")));

        attachments.failed("cluster-b", "consumer group 'billing' of logic topic orders", "billing", UNREACHABLE);
        clock.advance(Duration.ofSeconds(3));
        attachments.failed("cluster-b", "consumer group 'billing' of logic topic orders", "billing", UNREACHABLE);

        List<ClientHealth.Cluster> health = attachments.health(bySends);
        assertThat(health.get(0)).as("cluster-a untouched").isEqualTo(bySends.get(0));
        assertThat(health.get(1).state()).isEqualTo(ClusterState.DOWN);
        assertThat(health.get(1).reason()).hasValueSatisfying(reason -> assertThat(reason)
                .contains("consumer group 'billing' of logic topic orders not attached since " + FakeClock.START)
                .contains("not reachable").contains("connect to null failed"));
        assertThat(attempts("unreachable")).isEqualTo(2);

        attachments.attached("cluster-b", "consumer group 'billing' of logic topic orders", "billing");
        assertThat(attachments.health(bySends)).as("attached: cluster-b, unjudged by sends, is UP by its consumer")
                .containsExactly(bySends.get(0), new ClientHealth.Cluster("cluster-b", "idc-b", ClusterState.UP, Optional.empty()));
        attachments.forget("cluster-b", "consumer group 'billing' of logic topic orders");
        assertThat(attachments.health(bySends)).as("closed: the sends' judgement again").isEqualTo(bySends);
        assertThat(attempts("attached")).isEqualTo(1);
    }

    @Test
    void aRefusalIsCountedApartAndAddsToASendsDownReason() {
        List<ClientHealth.Cluster> bySends = List.of(
                new ClientHealth.Cluster("cluster-b", "idc-b", ClusterState.DOWN, Optional.of("out of the send rotation")));

        attachments.failed("cluster-b", "consumer group 'audit' of logic topic orders", "audit", REFUSED);

        assertThat(attachments.health(bySends).get(0).reason()).hasValueSatisfying(reason -> assertThat(reason)
                .startsWith("out of the send rotation; consumer group 'audit'").contains("(refused)").contains("NO_PERMISSION"));
        assertThat(attempts("refused")).isEqualTo(1);
    }

    private double attempts(String outcome) {
        return registry.get(SdkMetrics.CONSUMER_ATTACH_ATTEMPTS).tag(SdkMetrics.TAG_OUTCOME, outcome).counter().count();
    }
}
