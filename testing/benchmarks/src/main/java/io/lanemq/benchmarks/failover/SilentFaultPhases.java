package io.lanemq.benchmarks.failover;

import io.lanemq.api.Producer;
import io.lanemq.benchmarks.report.Figure;
import io.lanemq.benchmarks.report.Targets;
import io.lanemq.localstack.SendLog;
import io.lanemq.localstack.SendOutcome;
import io.lanemq.localstack.SyncSenders;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.net.NetworkFaults;
import io.lanemq.testkit.net.NetworkFaults.Direction;
import io.lanemq.testkit.net.NetworkFaults.Fault;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The silent faults of P5, for a fixed pool of synchronous senders: a partition of one IDC (every packet of its
 * name server and broker dropped) and 10% packet loss on it, each for a while and then healed. Each figure is
 * against the healthy rate measured in the same run just before. Needs a private network namespace
 * ({@code bin/netns/bin/java}).
 */
final class SilentFaultPhases {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final Producer producer;
    private final String topic;
    private final int senders;
    private final int faultSeconds;

    SilentFaultPhases(Producer producer, String topic, int senders, int faultSeconds) {
        this.producer = producer;
        this.topic = topic;
        this.senders = senders;
        this.faultSeconds = faultSeconds;
    }

    /**
     * Runs both faults on {@code victim}; returns the ids acknowledged, for the caller's loss check, prints results,
     * and adds each fault's figure to {@code figures}.
     */
    Set<String> run(Idc victim, StringBuilder results, List<Figure> figures) throws InterruptedException {
        try (NetworkFaults faults = NetworkFaults.open()) {
            SyncSenders pool = new SyncSenders(producer, topic, senders);
            try {
                SendLog log = pool.log();
                figures.add(phase(true, log, victim,
                        () -> faults.drop("partition of " + victim.name(), victim.ports(), Direction.BOTH), results));
                figures.add(phase(false, log, victim,
                        () -> faults.loss("10% loss on " + victim.name(), victim.ports(), 10, Direction.BOTH), results));
            } finally {
                pool.close();
            }
            System.out.printf("  sync senders: longest call of all %d ms%n", pool.log().longestMillis());
            return pool.log().acknowledgedIds();
        }
    }

    /** @param silent a partition (else loss), injected once the healthy rate is steady: the rate to compare with */
    private Figure phase(boolean silent, SendLog log, Idc victim, Supplier<Fault> inject, StringBuilder results) {
        String label = silent ? "silent partition" : "10% loss";
        waitSteady(log, victim.clusterName());
        long cutAt = log.nowNanos();
        double healthy = Arrays.stream(log.acknowledgedPerSecond(cutAt - 3 * SECOND, cutAt)).sum() / 3.0;
        Fault again = inject.get();
        waitUntil(log, cutAt + faultSeconds * SECOND);
        again.heal();
        long healedAt = log.nowNanos();
        long[] perSecond = log.acknowledgedPerSecond(cutAt, healedAt);
        int backAt = -1;
        for (int s = 0; s < perSecond.length && backAt < 0; s++) {
            final int from = s;
            if (Arrays.stream(perSecond, from, perSecond.length).allMatch(n -> n >= 0.9 * healthy)) {
                backAt = s;
            }
        }
        List<SendOutcome> fromThree = log.startedBetween(cutAt + 3 * SECOND, healedAt);
        double success = SendLog.successRate(fromThree);
        long[] micros = fromThree.stream().filter(SendOutcome::acknowledged).mapToLong(o -> o.elapsedNanos(0) / 1_000)
                .sorted().toArray();
        double p99 = micros.length == 0 ? -1 : micros[(int) (micros.length * 0.99)] / 1000.0;
        long longest = log.startedBetween(cutAt, healedAt).stream().mapToLong(o -> o.elapsedNanos(log.nowNanos())).max()
                .orElse(0) / 1_000_000;
        double rateRatio = Arrays.stream(log.acknowledgedPerSecond(cutAt + 3 * SECOND, healedAt)).average().orElse(0) / healthy;
        long backToWeights = waitForShare(log, victim.clusterName(), healedAt, 0.40, 60);
        System.out.printf("  %s of %s for %d s (%d packets dropped): healthy %.0f sends/s; acknowledged per second from the cut %s%n",
                label, victim.name(), faultSeconds, again.droppedPackets(), healthy, Arrays.toString(perSecond));
        System.out.printf("    every second >= 90%% of healthy from second %d; rate from 3 s %.2f x healthy; success from 3 s %.4f;"
                + " p99 %.1f ms; longest call %d ms; back to the weights (share >= 40%%) %d ms after the heal%n",
                backAt, rateRatio, success, p99, longest, backToWeights);
        boolean met = silent ? backAt >= 0 && backAt <= 3 && success >= 0.99 : rateRatio >= 0.9 && success >= 0.99;
        results.append(String.format(" %s: back_within_s=%d rate_ratio=%.2f success=%.4f p99_ms=%.1f longest_ms=%d %s;",
                silent ? "partition" : "loss10", backAt, rateRatio, success, p99, longest, met ? "MET" : "MISSED"));
        String note = String.format("success from 3 s %.4f; p99 %.1f ms; longest call %d ms; %d sync senders", success, p99, longest,
                senders);
        if (silent) {
            return Figure.of("P5", "silent partition of " + victim.name() + ": every second >= 90% of healthy from")
                    .measured(backAt < 0 ? Double.NaN : backAt, "s").target(Targets.P5_PARTITION_BACK_SECONDS)
                    .require(backAt >= 0, "never back to 90% of healthy").require(success >= 0.99, "success below 99%")
                    .note(note).build();
        }
        return Figure.of("P5", "10% loss on " + victim.name() + ": acknowledged sync sends/s from 3 s vs healthy")
                .measured(rateRatio * healthy, "sends/s").baseline(healthy).target(Targets.P5_LOSS_RATE_VS_HEALTHY)
                .require(success >= 0.99, "success below 99%").note(note).build();
    }

    private static void waitSteady(SendLog log, String victim) {
        long deadline = log.nowNanos() + 90 * SECOND;
        while (log.nowNanos() < deadline) {
            long now = log.nowNanos();
            long[] six = log.acknowledgedPerSecond(now - 7 * SECOND, now - SECOND);
            long earlier = six[0] + six[1] + six[2];
            long later = six[3] + six[4] + six[5];
            double share = SendLog.shareOf(log.startedBetween(now - 4 * SECOND, now - SECOND), victim);
            if (now > 10 * SECOND && earlier > 0 && Math.abs(later - earlier) <= 0.1 * earlier && share >= 0.35 && share <= 0.65) {
                return;
            }
            LockSupport.parkNanos(SECOND / 4);
        }
    }

    private static void waitUntil(SendLog log, long nanos) {
        while (log.nowNanos() < nanos) {
            LockSupport.parkNanos(SECOND / 20); // the senders run on their own threads; this only paces the report
        }
    }

    /** Waits until the last full second's share of {@code cluster} reaches {@code share}; milliseconds since {@code from}, or -1. */
    static long waitForShare(SendLog log, String cluster, long from, double share, int maxSeconds) {
        while (log.nowNanos() < from + maxSeconds * SECOND) {
            long now = log.nowNanos();
            if (now - from > SECOND && SendLog.shareOf(log.startedBetween(now - SECOND, now), cluster) >= share) {
                return (now - from) / 1_000_000;
            }
            LockSupport.parkNanos(SECOND / 10);
        }
        return -1;
    }
}
