package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.testkit.Idc;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.net.NetworkFaults;
import io.lanemq.testkit.net.NetworkFaults.Direction;
import io.lanemq.testkit.net.NetworkFaults.Fault;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A silent partition of one IDC (every packet to and from its name server and broker dropped: nothing refuses,
 * nothing resets) while the dial test runs: the other IDC's brokers must keep being probed successfully, the
 * partitioned one must show as failing (send failures), never as lost probes, and once the partition heals every
 * probe is reconciled with 0 lost. The logic-topic probes (through the SDK) behave as an application's messages: they
 * keep being stored on the healthy IDC and arrive, none fails and none is lost. Runs in its own network namespace
 * (bin/netns/bin/java), where the rules live.
 *
 * <p>It partitions the module's shared stack ({@link ItSupport#sharedStack()}, with {@link EmbeddedStack}'s broker
 * settings: the testkit's shared stack checks transactions back too hastily, which shows as duplicates) and heals it
 * before it ends; in the {@code network-faults} execution the tests of its JVM run one at a time.
 */
class IdcPartitionFaultIT {

    private static final Duration FAULT = Duration.ofSeconds(15);
    /** Short enough that sends to the partitioned IDC fail well within the fault. */
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(5);
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void aSilentlyPartitionedIdcShowsAsFailingWhileTheOtherKeepsBeingProbedAndNothingIsLost() {
        try (NetworkFaults faults = NetworkFaults.open()) {
            RocketMqStack stack = ItSupport.sharedStack();
            Idc healthy = stack.idc("idc-a");
            Idc victim = stack.idc("idc-b");
            DialTestOptions.Builder config = ItSupport.config().sendTimeout(SEND_TIMEOUT);
            for (Idc idc : stack.idcs()) {
                config.nameServer(idc.name(), idc.nameServerAddress());
            }
            EmbeddedPlatform platform = EmbeddedPlatform.on(stack, config.build().probeTopic());
            config.logicTopic(platform.configLocation(), EmbeddedPlatform.LOGIC_TOPIC, EmbeddedPlatform.LOGIC_GROUP);
            ItSupport.Reports reports = new ItSupport.Reports();
            Report totals;
            long healedToAckedMillis;
            try (DialTestRun test = DialTestRun.runner(config.build()).onReport(reports).start()) {
                MeterRegistry registry = test.registry();
                // Both IDCs answer on every kind before the cut; the healthy rate is the steady one, not the warm-up's.
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() ->
                    everyLaneAcked(registry, healthy, 20) && everyLaneAcked(registry, victim, 20));
                long warmedAt = System.nanoTime();
                Counts healthyWarm = Counts.of(registry, healthy);
                await().atMost(Duration.ofSeconds(10)).until(() -> System.nanoTime() - warmedAt >= 3 * SECOND);
                Counts healthyAtCut = Counts.of(registry, healthy);
                Map<ProbeKind, Long> healthyAckedAtCut = ackedPerKind(registry, healthy);
                long cutAt = System.nanoTime();
                double healthyRate = healthyAtCut.minus(healthyWarm).acked * (double) SECOND / (cutAt - warmedAt);
                Counts victimAtCut = Counts.of(registry, victim);
                Map<ProbeKind, Long> victimFailuresAtCut = perKind(registry, DialTestMetrics.SEND_FAILURES, victim);
                Logic logicAtCut = Logic.of(registry, healthy, victim);

                Fault partition = faults.drop("partition of " + victim.name(), victim.ports(), Direction.BOTH);
                // Second by second: a total over the window would let a fast end hide a stall.
                List<Long> healthyAcked = new ArrayList<>();
                healthyAcked.add(healthyAtCut.acked);
                await().atMost(FAULT.plusSeconds(15)).pollInterval(Duration.ofSeconds(1)).until(() -> {
                    healthyAcked.add(Counts.of(registry, healthy).acked);
                    return System.nanoTime() - cutAt >= FAULT.toNanos();
                });
                Counts healthyAtHeal = Counts.of(registry, healthy);
                Counts victimAtHeal = Counts.of(registry, victim);
                Map<ProbeKind, Long> healthyAckedAtHeal = ackedPerKind(registry, healthy);
                Map<ProbeKind, Long> victimFailuresAtHeal = perKind(registry, DialTestMetrics.SEND_FAILURES, victim);
                Logic logicDuring = Logic.of(registry, healthy, victim).minus(logicAtCut);
                partition.heal();
                long healedAt = System.nanoTime();
                long dropped = partition.droppedPackets();
                Counts healthyDuring = healthyAtHeal.minus(healthyAtCut);
                Counts victimDuring = victimAtHeal.minus(victimAtCut);
                long[] healthyPerSecond = new long[healthyAcked.size() - 1];
                for (int i = 0; i < healthyPerSecond.length; i++) {
                    healthyPerSecond[i] = healthyAcked.get(i + 1) - healthyAcked.get(i);
                }
                System.out.printf(Locale.ROOT, "partition of %s for %d s: %d packets dropped; %s before the cut %.0f "
                        + "acked probes/s; during the partition: %s %s, acked per poll (~1 s) %s; %s %s%n",
                    victim.name(), FAULT.toSeconds(), dropped, healthy.name(), healthyRate, healthy.name(),
                    healthyDuring, Arrays.toString(healthyPerSecond), victim.name(), victimDuring);

                assertThat(dropped).as("packets the partition dropped: it must have cut real traffic").isPositive();
                for (ProbeKind kind : ProbeKind.brokerKinds()) {
                    assertThat(healthyAckedAtHeal.get(kind) - healthyAckedAtCut.get(kind))
                        .as("%s %s probes acked during the partition", healthy.name(), kind.label()).isPositive();
                    assertThat(victimFailuresAtHeal.get(kind) - victimFailuresAtCut.get(kind))
                        .as("%s %s send failures during its partition", victim.name(), kind.label()).isPositive();
                }
                assertThat((double) healthyDuring.acked).as("%s probes acked during the partition (%s), healthy %.0f/s",
                        healthy.name(), healthyDuring, healthyRate)
                    .isGreaterThanOrEqualTo(0.8 * healthyRate * FAULT.toSeconds());
                assertThat(healthyDuring.failures).as("%s send failures during the partition", healthy.name()).isZero();
                assertThat(healthyDuring.lost).as("%s probes lost during the partition", healthy.name()).isZero();
                assertThat(victimDuring.lost).as("%s probes counted lost during its partition: it was unreachable, "
                    + "nothing says they are lost", victim.name()).isZero();

                // Through the SDK, as an application: stored on the healthy IDC, none failed, none lost.
                System.out.printf(Locale.ROOT, "logic-topic probes during the partition: %s%n", logicDuring);
                assertThat(logicDuring.healthyAcked).as("logic-topic probes stored on %s and acked during the partition",
                    healthy.name()).isGreaterThan(FAULT.toSeconds() * 20 / 2);
                assertThat(logicDuring.failures).as("logic-topic probes no cluster stored during the partition").isZero();
                assertThat(logicDuring.lost).as("logic-topic probes lost during the partition").isZero();
                assertThat((double) logicDuring.healthySent).as("%s's share of the logic-topic probes stored during the "
                    + "partition (%s)", healthy.name(), logicDuring)
                    .isGreaterThanOrEqualTo(0.9 * (logicDuring.healthySent + logicDuring.victimSent));

                // The healed IDC answers again on every kind; then stop() waits out every outstanding deadline.
                Map<ProbeKind, Long> victimAckedAtHeal = ackedPerKind(registry, victim);
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).until(() -> {
                    Map<ProbeKind, Long> now = ackedPerKind(registry, victim);
                    return ProbeKind.brokerKinds().stream().allMatch(k -> now.get(k) > victimAckedAtHeal.get(k));
                });
                healedToAckedMillis = (System.nanoTime() - healedAt) / 1_000_000;
                totals = test.stop();
            }
            System.out.print(LiveTable.summary(totals, 1.0));
            LaneCounts all = totals.total();
            LaneCounts victimTotal = total(totals, victim);
            System.out.printf(Locale.ROOT, "after the heal: %s acked on every kind again %d ms after it; run totals: "
                    + "sent %d, acked %d, lost %d, duplicated %d, send failures %d (%s: %d), late acks %d, "
                    + "pending %d%n",
                victim.name(), healedToAckedMillis, all.sent(), all.acked(), all.lost(), all.duplicated(),
                all.sendFailures(), victim.name(), victimTotal.sendFailures(), all.late(), totals.pending());

            platform.close();
            for (LaneReport lane : totals.lanes()) {
                assertThat(lane.counts().lost()).as("%s lost", lane.key()).isZero();
                // A logic-topic probe whose send timed out on the partitioned IDC and was stored on the healthy one
                // arrives twice after the heal: at least once, by design.
                if (lane.key().cluster().equals(healthy.clusterName()) && lane.key().kind().perBroker()) {
                    assertThat(lane.counts().sendFailures()).as("%s send failures", lane.key()).isZero();
                    assertThat(lane.counts().duplicated()).as("%s duplicated", lane.key()).isZero();
                }
            }
            assertThat(totals.lanes().stream().filter(l -> l.key().kind().perBroker()))
                .hasSize(stack.idcs().size() * ProbeKind.brokerKinds().size());
            assertThat(totals.pending()).as("probes still pending after stop()").isZero();
        }
    }

    private static boolean everyLaneAcked(MeterRegistry registry, Idc idc, long atLeast) {
        return ackedPerKind(registry, idc).values().stream().allMatch(acked -> acked >= atLeast);
    }

    private static Map<ProbeKind, Long> ackedPerKind(MeterRegistry registry, Idc idc) {
        return perKind(registry, DialTestMetrics.PROBES_ACKED, idc);
    }

    /** One counter of an IDC, per probe kind, summed over its brokers. */
    private static Map<ProbeKind, Long> perKind(MeterRegistry registry, String counter, Idc idc) {
        Map<ProbeKind, Long> perKind = new EnumMap<>(ProbeKind.class);
        for (ProbeKind kind : ProbeKind.brokerKinds()) {
            perKind.put(kind, sum(registry.find(counter).tag(DialTestMetrics.TAG_CLUSTER, idc.clusterName())
                .tag(DialTestMetrics.TAG_KIND, kind.label()).counters()));
        }
        return perKind;
    }

    private static long sum(Collection<Counter> counters) {
        return (long) counters.stream().mapToDouble(Counter::count).sum();
    }

    private static LaneCounts total(Report report, Idc idc) {
        return report.lanes().stream().filter(l -> l.key().cluster().equals(idc.clusterName()))
            .map(LaneReport::counts).reduce(LaneCounts.ZERO, LaneCounts::plus);
    }

    /** The logic-topic probes' counters at one moment: stored per IDC, acked on the healthy one, failed, lost. */
    private record Logic(long healthySent, long victimSent, long healthyAcked, long failures, long lost) {

        static Logic of(MeterRegistry registry, Idc healthy, Idc victim) {
            return new Logic(logic(registry, DialTestMetrics.PROBES_SENT, healthy.clusterName()),
                logic(registry, DialTestMetrics.PROBES_SENT, victim.clusterName()),
                logic(registry, DialTestMetrics.PROBES_ACKED, healthy.clusterName()),
                logic(registry, DialTestMetrics.SEND_FAILURES, LogicTopicProber.UNROUTED),
                sum(registry.find(DialTestMetrics.PROBES_LOST).tag(DialTestMetrics.TAG_KIND, ProbeKind.LOGIC_TOPIC.label())
                    .counters()));
        }

        private static long logic(MeterRegistry registry, String name, String cluster) {
            return sum(registry.find(name).tag(DialTestMetrics.TAG_CLUSTER, cluster)
                .tag(DialTestMetrics.TAG_KIND, ProbeKind.LOGIC_TOPIC.label()).counters());
        }

        Logic minus(Logic earlier) {
            return new Logic(healthySent - earlier.healthySent, victimSent - earlier.victimSent,
                healthyAcked - earlier.healthyAcked, failures - earlier.failures, lost - earlier.lost);
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "stored on the healthy IDC %d (acked %d), on the partitioned one %d, "
                + "no cluster stored %d, lost %d", healthySent, healthyAcked, victimSent, failures, lost);
        }
    }

    /** One IDC's broker-probe counters (all its brokers and broker kinds) as its meters show them at one moment. */
    private record Counts(long sent, long acked, long failures, long lost, long late) {

        static Counts of(MeterRegistry registry, Idc idc) {
            return new Counts(count(registry, DialTestMetrics.PROBES_SENT, idc),
                count(registry, DialTestMetrics.PROBES_ACKED, idc), count(registry, DialTestMetrics.SEND_FAILURES, idc),
                count(registry, DialTestMetrics.PROBES_LOST, idc), count(registry, DialTestMetrics.ACKS_LATE, idc));
        }

        // The broker probes only: the logic-topic probes move to the healthy IDC during the partition.
        private static long count(MeterRegistry registry, String name, Idc idc) {
            return sum(registry.find(name).tag(DialTestMetrics.TAG_CLUSTER, idc.clusterName()).counters().stream()
                .filter(c -> ProbeKind.parse(c.getId().getTag(DialTestMetrics.TAG_KIND)).perBroker()).toList());
        }

        Counts minus(Counts earlier) {
            return new Counts(sent - earlier.sent, acked - earlier.acked, failures - earlier.failures,
                lost - earlier.lost, late - earlier.late);
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "sent %d, acked %d, send failures %d, lost %d, late acks %d", sent, acked,
                failures, lost, late);
        }
    }
}
