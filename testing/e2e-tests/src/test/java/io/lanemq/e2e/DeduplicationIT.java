package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.Consumer;
import io.lanemq.api.Deduplication;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.Subscription;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.localstack.SendStream;
import io.lanemq.testkit.IdcSpec;
import io.lanemq.testkit.StackSpec;
import io.micrometer.core.instrument.Counter;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The SDK's own duplicates, on real brokers: IDC B answers 1.5 s late (its latency proxy), so the producer gives up
 * on its attempts, sends again to IDC A, and IDC B still stores the late copies. Both copies carry one message id,
 * so a group with deduplication by message id (set for the group in the platform configuration) sees each message
 * once, while a plain group sees the copies. Then the brokers of IDC A move both groups back to the start of the
 * topic (a forced offset reset, as an operator's rewind or a lost offset commit would): a real broker redelivery
 * of messages already consumed, which the plain group sees again and the deduplicating group drops.
 *
 * <p>The brokers it delays and rewinds are those of its own stack, and it counts copies, never rates or timings: a
 * busy host only makes IDC B's answers later still, and any further send that fails over stores one more copy, which
 * the assertions count like the others. So it may run beside another concurrent class.
 */
@Execution(ExecutionMode.CONCURRENT)
class DeduplicationIT {
    @RegisterExtension
    static final GlobalMeters METRICS = new GlobalMeters();

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void theCopiesOfSendsGivenUpOnAndABrokerRedeliveryAreDroppedByAGroupWithDeduplicationAndSeenByOneWithout() throws Exception {
        StackSpec spec = StackSpec.builder()
                .idc(IdcSpec.of("idc-a", "cluster-a"))
                .idc(IdcSpec.builder("idc-b").clusterName("cluster-b").latencyProxy(true).build())
                .build();
        String plainGroup = LocalPlatform.unique("dedup-plain");
        String dedupGroup = LocalPlatform.unique("dedup-on");
        try (LocalPlatform platform = LocalPlatform.start(spec).addTopic("invoice", 4, 50, 50, plainGroup, dedupGroup)
                // The platform team turns it on for the group; the application's subscription says nothing of it.
                .consumerSettings("invoice", dedupGroup, group -> group.withDeduplication(Duration.ofMinutes(10),
                        Deduplication.Identity.MESSAGE_ID))) {
            Received plain = new Received();
            Received deduplicated = new Received();
            try (MessagingClient client = platform.client("dedup-it");
                 Producer producer = client.createProducer(ProducerOptions.defaults());
                 Consumer plainConsumer = client.subscribe(Subscription.builder("invoice", plainGroup).build(), plain);
                 Consumer dedupConsumer = client.subscribe(Subscription.builder("invoice", dedupGroup).build(), deduplicated);
                 SendStream stream = new SendStream(producer, "invoice", 200)) {
                // Both groups consume both IDCs before the delay, so no copy is missed by a late first rebalance.
                await().atMost(Duration.ofSeconds(60)).until(() -> plain.byCluster.size() == 2 && deduplicated.byCluster.size() == 2);
                long slowedAt = stream.nowNanos();
                platform.idcB().setBrokerDelay(Duration.ofMillis(1_500));
                await().atMost(Duration.ofSeconds(30)).until(() -> stream.nowNanos() > slowedAt + 4 * SECOND);
                stream.close();
                await().atMost(Duration.ofSeconds(30)).until(stream::settled);
                platform.idcB().setBrokerDelay(Duration.ZERO);

                Set<String> acknowledged = stream.acknowledgedIds();
                long stored = platform.stack().storedMessages(platform.physicalTopic("invoice"));
                // Every stored copy consumed by each group: delivered to the plain listener, delivered or dropped in
                // the other; an extra copy stored is then an extra copy seen.
                await().atMost(Duration.ofSeconds(90)).until(() -> plain.deliveries() >= stored
                        && deduplicated.deliveries() + dropped(dedupGroup) >= stored);
                long copies = plain.deliveries() - plain.deliveriesById.size();
                System.out.printf("deduplication: %d sends acknowledged, %d copies stored; the plain group got %d deliveries "
                                + "of %d ids, the deduplicating group %d deliveries and dropped %.0f%n", acknowledged.size(),
                        stored, plain.deliveries(), plain.deliveriesById.size(), deduplicated.deliveries(), dropped(dedupGroup));

                assertThat(copies).as("precondition: the late IDC stored copies the plain group received").isPositive();
                assertThat(plain.deliveriesById.keySet()).as("the copies carry acknowledged ids").isEqualTo(acknowledged);
                assertThat(deduplicated.deliveriesById.keySet()).isEqualTo(acknowledged);
                assertThat(deduplicated.duplicates()).as("messages the deduplicating group's listener saw twice").isZero();
                assertThat(dropped(dedupGroup)).as("copies dropped").isEqualTo((double) copies);

                // A broker redelivery: IDC A hands both groups every message it holds once more.
                String physical = platform.physicalTopic("invoice");
                long storedOnA = platform.idcA().storedMessages(physical);
                long plainBefore = plain.deliveries();
                long dedupBefore = deduplicated.deliveries();
                double droppedBefore = dropped(dedupGroup);
                assertThat(platform.idcA().rewindGroup(physical, plainGroup)).as("queues of IDC A rewound").isEqualTo(4);
                assertThat(platform.idcA().rewindGroup(physical, dedupGroup)).isEqualTo(4);
                await().atMost(Duration.ofSeconds(60)).until(() -> plain.deliveries() - plainBefore >= storedOnA
                        && dropped(dedupGroup) - droppedBefore >= storedOnA);
                System.out.printf("deduplication: IDC A redelivered %d messages; the plain group saw %d again, the "
                        + "deduplicating group's listener %d and it dropped %.0f%n", storedOnA, plain.deliveries() - plainBefore,
                        deduplicated.deliveries() - dedupBefore, dropped(dedupGroup) - droppedBefore);
                assertThat(storedOnA).as("precondition: IDC A holds messages to redeliver").isPositive();
                assertThat(deduplicated.deliveries()).as("deliveries the deduplicating listener saw after the rewind")
                        .isEqualTo(dedupBefore);
                assertThat(deduplicated.duplicates()).isZero();
            }
        }
    }

    private static double dropped(String group) {
        return METRICS.find(SdkMetrics.DUPLICATES_DROPPED).tag(SdkMetrics.TAG_GROUP, group).counters().stream()
                .mapToDouble(Counter::count).sum();
    }
}
