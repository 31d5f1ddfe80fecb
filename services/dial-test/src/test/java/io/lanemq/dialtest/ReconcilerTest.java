package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.support.FakeClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ReconcilerTest {

    private static final long RUN = 99;
    private static final Duration GRACE = Duration.ofSeconds(10);
    private static final LaneKey NORMAL = new LaneKey("cluster-a", "broker-0", ProbeKind.NORMAL);
    private static final LaneKey DELAYED = new LaneKey("cluster-a", "broker-0", ProbeKind.DELAYED);

    private final FakeClock clock = new FakeClock();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final Reconciler reconciler = new Reconciler(RUN, clock, clock, GRACE, Duration.ofSeconds(60),
        new DialTestMetrics(registry));

    @Test
    void reportsExactlyTheInjectedLossAndDuplicates() {
        Random random = new Random(3);
        for (int round = 0; round < 20; round++) {
            Reconciler r = new Reconciler(RUN, clock, clock, GRACE, Duration.ofSeconds(60), new DialTestMetrics(new SimpleMeterRegistry()));
            int n = 200 + random.nextInt(800);
            int k = random.nextInt(n / 4);
            int d = random.nextInt(n / 4);
            LaneStats lane = r.lane(NORMAL);
            long base = round * 10_000L;
            for (int i = 0; i < n; i++) {
                r.track(base + i, lane, clock.read(), 0, 0);
                r.sent(lane);
            }
            // The first k probes are lost; of the others, d are acked twice (some a third time: still duplicates).
            int triple = d == 0 ? 0 : random.nextInt(d);
            for (int i = k; i < n; i++) {
                r.onAck(ack(base + i), clock.read());
            }
            for (int i = k; i < k + d; i++) {
                r.onAck(ack(base + i), clock.read());
            }
            for (int i = k; i < k + triple; i++) {
                r.onAck(ack(base + i), clock.read());
            }
            clock.advance(GRACE.plusSeconds(1));
            Report report = r.reconcile();
            LaneCounts counts = report.lane("cluster-a", "broker-0", ProbeKind.NORMAL).orElseThrow().counts();
            assertThat(counts.sent()).isEqualTo(n);
            assertThat(counts.acked()).isEqualTo(n - k);
            assertThat(counts.lost()).as("lost, round %d", round).isEqualTo(k);
            assertThat(counts.duplicated()).as("duplicated, round %d", round).isEqualTo(d + triple);
            assertThat(report.pending()).isZero();
        }
    }

    @Test
    void aProbeIsLostOnlyOnceItsDeadlinePassed() {
        LaneStats lane = reconciler.lane(NORMAL);
        reconciler.track(1, lane, clock.read(), 0, 0);
        clock.advance(GRACE.minusMillis(1));
        assertThat(reconciler.reconcile().total().lost()).isZero();
        assertThat(reconciler.pending()).isEqualTo(1);
        clock.advance(Duration.ofMillis(1));
        assertThat(reconciler.reconcile().total().lost()).isEqualTo(1);
        assertThat(reconciler.pending()).isZero();
    }

    @Test
    void aDelayedProbeIsDueAfterItsDelayAndItsLatencyCountsFromThen() {
        LaneStats lane = reconciler.lane(DELAYED);
        reconciler.track(1, lane, clock.read(), Duration.ofSeconds(30).toNanos(), 0);
        clock.advance(Duration.ofSeconds(35));
        assertThat(reconciler.reconcile().total().lost()).as("30 s delay + 10 s grace not over").isZero();
        reconciler.onAck(new AckFrame(RUN, 1, ProbeKind.DELAYED, 0, 0), clock.read());
        Report report = reconciler.reconcile();
        LaneReport row = report.lane("cluster-a", "broker-0", ProbeKind.DELAYED).orElseThrow();
        assertThat(row.counts().acked()).isEqualTo(1);
        assertThat(row.latency().maxMicros()).isBetween(4_990_000L, 5_010_000L);
    }

    @Test
    void theCheckBackAllowanceExtendsTheDeadline() {
        LaneStats lane = reconciler.lane(NORMAL);
        reconciler.track(1, lane, clock.read(), 0, Duration.ofSeconds(45).toNanos());
        clock.advance(Duration.ofSeconds(54));
        assertThat(reconciler.reconcile().total().lost()).isZero();
        clock.advance(Duration.ofSeconds(1));
        assertThat(reconciler.reconcile().total().lost()).isEqualTo(1);
    }

    @Test
    void anAckAfterTheDeadlineIsLateNotAcked() {
        LaneStats lane = reconciler.lane(NORMAL);
        reconciler.track(1, lane, clock.read(), 0, 0);
        clock.advance(GRACE);
        reconciler.reconcile();
        assertThat(reconciler.onAck(ack(1), clock.read())).isEqualTo(AckSink.Outcome.MATCHED);
        LaneCounts counts = reconciler.totals().total();
        assertThat(counts.lost()).isEqualTo(1);
        assertThat(counts.late()).isEqualTo(1);
        assertThat(counts.acked()).isZero();
    }

    @Test
    void aFailedSendIsAFailureNeverALoss() {
        LaneStats lane = reconciler.lane(NORMAL);
        reconciler.track(1, lane, clock.read(), 0, 0);
        reconciler.sendFailed(lane, 1, true, true);
        reconciler.sendFailed(lane, 2, false, false);
        clock.advance(GRACE.plusSeconds(5));
        LaneCounts counts = reconciler.reconcile().total();
        assertThat(counts.sendFailures()).isEqualTo(2);
        assertThat(counts.lost()).isZero();
    }

    @Test
    void probesPendingOnABrokerThatStopsAnsweringAreHeldUntilItAnswersAgain() {
        LaneStats lane = reconciler.lane(NORMAL);
        reconciler.track(1, lane, clock.read(), 0, 0);
        reconciler.sent(lane);
        for (int second = 2; second <= 20; second += 2) { // a partition: every send goes unanswered
            clock.advance(Duration.ofSeconds(2));
            reconciler.track(100 + second, lane, clock.read(), 0, 0);
            reconciler.sendFailed(lane, 100 + second, true, false);
            assertThat(reconciler.reconcile().total().lost()).as("lost %d s into the partition", second).isZero();
        }
        assertThat(reconciler.pending()).isEqualTo(1);
        assertThat(reconciler.latestDeadline()).hasValue(clock.read() + GRACE.toNanos());
        clock.advance(GRACE.minusMillis(1)); // healed: the broker has its grace again from its last unanswered send
        assertThat(reconciler.reconcile().total().lost()).isZero();
        reconciler.onAck(ack(1), clock.read());
        LaneCounts counts = reconciler.totals().total();
        assertThat(counts.acked()).isEqualTo(1);
        assertThat(counts.lost()).isZero();
        assertThat(counts.late()).isZero();
        assertThat(counts.sendFailures()).isEqualTo(10);
    }

    @Test
    void aProbeHeldByAnUnansweredSendIsLostAGraceAfterIt() {
        LaneStats lane = reconciler.lane(NORMAL);
        reconciler.track(1, lane, clock.read(), 0, Duration.ofSeconds(5).toNanos());
        clock.advance(Duration.ofSeconds(12));
        reconciler.sendFailed(lane, 2, false, false);
        clock.advance(GRACE.plusSeconds(5).minusMillis(1));
        assertThat(reconciler.reconcile().total().lost()).as("grace + allowance after the unanswered send").isZero();
        clock.advance(Duration.ofMillis(1));
        assertThat(reconciler.reconcile().total().lost()).isEqualTo(1);
    }

    @Test
    void aSendTheBrokerRefusedOrAnotherBrokersFailureHoldsNothing() {
        LaneStats lane = reconciler.lane(NORMAL);
        LaneStats otherBroker = reconciler.lane(new LaneKey("cluster-a", "broker-1", ProbeKind.NORMAL));
        LaneStats otherCluster = reconciler.lane(new LaneKey("cluster-b", "broker-0", ProbeKind.NORMAL));
        reconciler.track(1, lane, clock.read(), 0, 0);
        clock.advance(Duration.ofSeconds(5));
        reconciler.sendFailed(lane, 2, false, true);
        reconciler.sendFailed(otherBroker, 3, false, false);
        reconciler.sendFailed(otherCluster, 4, false, false);
        clock.advance(GRACE.minusSeconds(5));
        assertThat(reconciler.reconcile().total().lost()).isEqualTo(1);
    }

    @Test
    void anUnansweredSendBeforeAProbeChangesNotItsDeadline() {
        LaneStats lane = reconciler.lane(DELAYED);
        reconciler.sendFailed(lane, 1, false, false);
        clock.advance(Duration.ofSeconds(1));
        reconciler.track(2, lane, clock.read(), Duration.ofSeconds(3).toNanos(), 0);
        assertThat(reconciler.latestDeadline()).hasValue(clock.read() + Duration.ofSeconds(3).plus(GRACE).toNanos());
    }

    @Test
    void foreignRunsAndUnknownSequencesAreNotCounted() {
        reconciler.lane(NORMAL);
        assertThat(reconciler.onAck(new AckFrame(RUN + 1, 1, ProbeKind.NORMAL, 0, 0), clock.read()))
            .isEqualTo(AckSink.Outcome.UNKNOWN_RUN);
        assertThat(reconciler.onAck(ack(12345), clock.read())).isEqualTo(AckSink.Outcome.UNKNOWN_PROBE);
        assertThat(reconciler.totals().total()).isEqualTo(LaneCounts.ZERO);
    }

    @Test
    void duplicatesAreRecognizedForTheRetentionThenForgotten() {
        LaneStats lane = reconciler.lane(NORMAL);
        reconciler.track(1, lane, clock.read(), 0, 0);
        reconciler.onAck(ack(1), clock.read());
        clock.advance(Duration.ofSeconds(59));
        reconciler.reconcile();
        reconciler.onAck(ack(1), clock.read());
        assertThat(reconciler.totals().total().duplicated()).isEqualTo(1);
        clock.advance(Duration.ofSeconds(1));
        reconciler.reconcile();
        assertThat(reconciler.onAck(ack(1), clock.read())).isEqualTo(AckSink.Outcome.UNKNOWN_PROBE);
    }

    @Test
    void eachReportCoversItsOwnPeriodAndTheTotalsTheWholeRun() {
        LaneStats lane = reconciler.lane(NORMAL);
        for (int period = 1; period <= 3; period++) {
            for (int i = 0; i < period * 10; i++) {
                long seq = period * 1000L + i;
                reconciler.track(seq, lane, clock.read(), 0, 0);
                reconciler.sent(lane);
                clock.advance(Duration.ofMillis(period));
                reconciler.onAck(ack(seq), clock.read());
            }
            Report report = reconciler.reconcile();
            LaneReport row = report.lanes().get(0);
            assertThat(row.counts().sent()).isEqualTo(period * 10);
            assertThat(row.counts().acked()).isEqualTo(period * 10);
            assertThat(row.latency().p99Micros()).isBetween(period * 990L, period * 1010L);
        }
        LaneReport total = reconciler.totals().lanes().get(0);
        assertThat(total.counts().acked()).isEqualTo(60);
        assertThat(total.latency().count()).isEqualTo(60);
        assertThat(total.latency().maxMicros()).isBetween(2_990L, 3_010L);
    }

    @Test
    void theMetersFollowTheCounts() {
        LaneStats lane = reconciler.lane(NORMAL);
        reconciler.track(1, lane, clock.read(), 0, 0);
        reconciler.sent(lane);
        clock.advance(Duration.ofMillis(5));
        reconciler.onAck(ack(1), clock.read());
        reconciler.onAck(ack(1), clock.read());
        reconciler.track(2, lane, clock.read(), 0, 0);
        clock.advance(GRACE);
        reconciler.reconcile();
        assertThat(registry.get(DialTestMetrics.PROBES_SENT).tag("kind", "normal").counter().count()).isEqualTo(1);
        assertThat(registry.get(DialTestMetrics.PROBES_ACKED).counter().count()).isEqualTo(1);
        assertThat(registry.get(DialTestMetrics.PROBES_DUPLICATED).counter().count()).isEqualTo(1);
        assertThat(registry.get(DialTestMetrics.PROBES_LOST).counter().count()).isEqualTo(1);
        assertThat(registry.get(DialTestMetrics.PROBE_LATENCY).timer().count()).isEqualTo(1);
        assertThat(registry.get(DialTestMetrics.LAST_RECONCILIATION).gauge().value())
            .isEqualTo(clock.millis() / 1000.0);
    }

    @Test
    void aRoutedProbeCountsOnTheClusterThatStoredItEvenWhenItsAckCameFirst() {
        LaneStats unrouted = reconciler.lane(new LaneKey(LogicTopicProber.UNROUTED, "orders", ProbeKind.LOGIC_TOPIC));
        LaneStats clusterA = reconciler.lane(new LaneKey("cluster-a", "orders", ProbeKind.LOGIC_TOPIC));
        LaneStats clusterB = reconciler.lane(new LaneKey("cluster-b", "orders", ProbeKind.LOGIC_TOPIC));
        reconciler.trackRouted(1, unrouted, clock.read());
        reconciler.trackRouted(2, unrouted, clock.read());
        clock.advance(Duration.ofMillis(5));
        reconciler.routed(1, clusterA, true);
        reconciler.onAck(new AckFrame(RUN, 1, ProbeKind.LOGIC_TOPIC, 0, 0), clock.read());
        // The consumer's ack may beat the send's completion: it is held until the probe knows its cluster.
        reconciler.onAck(new AckFrame(RUN, 2, ProbeKind.LOGIC_TOPIC, 0, 0), clock.read());
        reconciler.onAck(new AckFrame(RUN, 2, ProbeKind.LOGIC_TOPIC, 0, 0), clock.read());
        assertThat(reconciler.pending()).as("held until the probe is routed").isEqualTo(1);
        clock.advance(Duration.ofMillis(5));
        reconciler.routed(2, clusterB, true);
        clock.advance(GRACE.plusSeconds(1));
        Report report = reconciler.reconcile();
        LaneCounts a = report.lane("cluster-a", "orders", ProbeKind.LOGIC_TOPIC).orElseThrow().counts();
        LaneCounts b = report.lane("cluster-b", "orders", ProbeKind.LOGIC_TOPIC).orElseThrow().counts();
        assertThat(a).isEqualTo(new LaneCounts(1, 0, 1, 0, 0, 0, 0));
        assertThat(b).as("the held ack and its duplicate count where the probe was stored")
            .isEqualTo(new LaneCounts(1, 0, 1, 0, 1, 0, 0));
        assertThat(report.lane(LogicTopicProber.UNROUTED, "orders", ProbeKind.LOGIC_TOPIC).orElseThrow().counts())
            .isEqualTo(LaneCounts.ZERO);
        assertThat(report.lane("cluster-b", "orders", ProbeKind.LOGIC_TOPIC).orElseThrow().latency().maxMicros())
            .as("latency from the send to the held ack's arrival (HdrHistogram's precision)").isBetween(4_990L, 5_010L);
    }

    @Test
    void aRoutedProbeOfAClusterTheRoutingJudgesDownIsNotLostWhileItIsDown() {
        LaneKey keyB = new LaneKey("cluster-b", "orders", ProbeKind.LOGIC_TOPIC);
        LaneStats unrouted = reconciler.lane(new LaneKey(LogicTopicProber.UNROUTED, "orders", ProbeKind.LOGIC_TOPIC));
        reconciler.trackRouted(1, unrouted, clock.read());
        reconciler.routed(1, reconciler.lane(keyB), true);
        for (int second = 0; second < 30; second++) {
            clock.advance(Duration.ofSeconds(1));
            reconciler.unanswered(keyB);
        }
        assertThat(reconciler.reconcile().total().lost()).as("30 s down, grace 10 s: held").isZero();
        clock.advance(GRACE);
        assertThat(reconciler.reconcile().total().lost()).as("the grace after the cluster came back").isEqualTo(1);
    }

    @Test
    void reportsTheSplitOfTheLogicTopicProbesBesideTheWeightsInForce() {
        reconciler.weightsFrom(() -> java.util.Map.of("cluster-a", 100, "cluster-b", 0));
        LaneStats unrouted = reconciler.lane(new LaneKey(LogicTopicProber.UNROUTED, "orders", ProbeKind.LOGIC_TOPIC));
        for (int i = 0; i < 4; i++) {
            reconciler.trackRouted(i, unrouted, clock.read());
            reconciler.routed(i, reconciler.lane(new LaneKey(i == 0 ? "cluster-b" : "cluster-a", "orders",
                ProbeKind.LOGIC_TOPIC)), true);
        }
        Report report = reconciler.reconcile();
        assertThat(report.logicTopicSplit()).containsEntry("cluster-a", 0.75).containsEntry("cluster-b", 0.25);
        assertThat(LiveTable.split(report)).as("the table's line").hasValueSatisfying(line -> assertThat(line)
            .contains("cluster-a 75.0% (weight 100%)").contains("cluster-b 25.0% (weight 0%)"));
    }

    private static AckFrame ack(long sequence) {
        return new AckFrame(RUN, sequence, ProbeKind.NORMAL, 0, 0);
    }
}
