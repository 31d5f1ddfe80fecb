package io.lanemq.benchmarks.failover;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Consumer;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.Subscription;
import io.lanemq.benchmarks.cpu.CpuMeter;
import io.lanemq.benchmarks.report.Figure;
import io.lanemq.benchmarks.report.FigureBenchmark;
import io.lanemq.benchmarks.report.Targets;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.localstack.SendStream;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.IdcSpec;
import io.lanemq.testkit.LatencyProxy;
import io.lanemq.testkit.StackSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * P5 on real brokers: a steady stream at 50/50 over two IDCs, then IDC B's broker made 100 ms
 * slower (through the testkit's latency proxy) and healed, then IDC A killed with SIGKILL and
 * restarted. Prints the healthy split, how fast the slow broker's share falls below 10% and comes
 * back, how long after the kill 99% of sends succeed again, and whether any acknowledged message
 * was lost.
 */
@Command(name = "idc-failover", mixinStandardHelpOptions = true,
        description = "P5: IDC kill recovery (target <= 3 s to 99%% success), slow broker share (target <= 10%% within 10 s); "
                + "with --network-faults a silent partition (target: >= 90%% of the healthy sync rate within 3 s, >= 99%% success) "
                + "and 10%% loss (target >= 90%% of the healthy rate).")
public final class IdcFailoverBenchmark implements FigureBenchmark {
    private static final String TOPIC = "bench-failover";
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Option(names = "--rate", defaultValue = "2000", description = "Sends per second (default: ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--network-faults", description = "Also a silent partition and 10%% loss of IDC B under sync senders "
            + "(run with bin/netns/bin/java: the rules need a network namespace of the benchmark's own).")
    boolean networkFaults;

    @Option(names = "--senders", defaultValue = "4", description = "Sync senders of the network-fault phases (default: ${DEFAULT-VALUE}).")
    int senders;

    @Option(names = "--fault-seconds", defaultValue = "20", description = "How long each network fault lasts (default: ${DEFAULT-VALUE}).")
    int faultSeconds;

    @Option(names = "--slow-ms", defaultValue = "100", description = "Delay added to the slow broker (default: ${DEFAULT-VALUE}).")
    int slowMillis;

    @Override
    public List<Figure> measure() throws Exception {
        StackSpec spec = StackSpec.builder()
                .idc(IdcSpec.of("idc-a", "cluster-a"))
                .idc(IdcSpec.builder("idc-b").clusterName("cluster-b").latencyProxy(true).build())
                .build();
        String group = LocalPlatform.unique("bench-failover");
        Set<String> consumed = ConcurrentHashMap.newKeySet();
        Map<String, Integer> deliveries = new ConcurrentHashMap<>();
        try (LocalPlatform platform = LocalPlatform.start(spec)) {
            platform.addTopic(TOPIC, 8, 50, 50, group);
            Idc idcA = platform.idcA();
            Idc idcB = platform.idcB();
            LatencyProxy slowPath = idcB.brokers().get(0).latencyProxy().orElseThrow();
            try (MessagingClient client = platform.client("bench-failover");
                 Producer producer = client.createProducer(ProducerOptions.defaults());
                 Consumer consumer = client.subscribe(Subscription.builder(TOPIC, group).build(), message -> {
                     consumed.add(message.messageId());
                     deliveries.merge(message.messageId(), 1, Integer::sum);
                     return ConsumeResult.SUCCESS;
                 })) {
                CpuMeter.Reading streamStarted = CpuMeter.read();
                SendStream stream = new SendStream(producer, TOPIC, rate);
                System.out.printf("P5 idc-failover: %d msgs/s over %s and %s, weights 50/50%n", rate, idcA.clusterName(), idcB.clusterName());

                waitUntil(stream, 12 * SECOND);
                CpuMeter.Usage healthyCpu = CpuMeter.read().since(streamStarted);
                long healthySends = stream.startedBetween(0, 12 * SECOND).size();
                double healthyShare = SendStream.shareOf(stream.startedBetween(2 * SECOND, 12 * SECOND), idcA.clusterName());
                System.out.printf("  healthy: %s share %.1f%% (configured 50%%), deviation %.1f pp%n",
                        idcA.clusterName(), healthyShare * 100, Math.abs(healthyShare - 0.5) * 100);

                long slowAt = stream.nowNanos();
                slowPath.setDelay(Duration.ofMillis(slowMillis));
                waitUntil(stream, slowAt + 15 * SECOND);
                long below10 = firstSecondAtOrBelow(stream, idcB.clusterName(), slowAt, 0.10);
                double shareAt10 = SendStream.shareOf(stream.startedBetween(slowAt + 9 * SECOND, slowAt + 10 * SECOND), idcB.clusterName());
                System.out.printf("  slow +%d ms on %s: share <= 10%% after %d ms; share in second 10: %.1f%%%n",
                        slowMillis, idcB.clusterName(), below10, shareAt10 * 100);
                long healedAt = stream.nowNanos();
                slowPath.setDelay(Duration.ZERO);
                long backAt40 = waitForShare(stream, idcB.clusterName(), healedAt, 0.40, 60);
                System.out.printf("  healed: %s share back >= 40%% after %d ms%n", idcB.clusterName(), backAt40);

                long killedAt = stream.nowNanos();
                idcA.kill();
                waitUntil(stream, killedAt + 10 * SECOND);
                long recovered = recoveryMillis(stream, killedAt);
                long failedAfterKill = stream.startedBetween(killedAt, killedAt + 10 * SECOND).stream().filter(o -> !o.acknowledged()).count();
                System.out.printf("  IDC %s killed: sends >= 99%% successful again after %d ms; %d sends failed in the 10 s after%n",
                        idcA.name(), recovered, failedAfterKill);
                long restartAt = stream.nowNanos();
                idcA.start();
                long restartReady = (stream.nowNanos() - restartAt) / 1_000_000;
                long backAfterRestart = waitForShare(stream, idcA.clusterName(), stream.nowNanos(), 0.40, 60);
                System.out.printf("  IDC %s restarted in %d ms; its share back >= 40%% %d ms later%n", idcA.name(), restartReady, backAfterRestart);

                stream.close();
                StringBuilder silentResults = new StringBuilder();
                List<Figure> silentFigures = new ArrayList<>();
                Set<String> syncAcknowledged = networkFaults
                        ? new SilentFaultPhases(producer, TOPIC, senders, faultSeconds).run(idcB, silentResults, silentFigures) : Set.of();
                long settleBy = System.nanoTime() + 30 * SECOND;
                while (!stream.settled() && System.nanoTime() < settleBy) {
                    LockSupport.parkNanos(SECOND / 10);
                }
                Set<String> acknowledged = new HashSet<>(stream.acknowledgedIds());
                acknowledged.addAll(syncAcknowledged);
                long consumeBy = System.nanoTime() + 120 * SECOND;
                while (!consumed.containsAll(acknowledged) && System.nanoTime() < consumeBy) {
                    LockSupport.parkNanos(SECOND / 2);
                }
                long lost = acknowledged.stream().filter(id -> !consumed.contains(id)).count();
                long duplicated = deliveries.values().stream().filter(n -> n > 1).count();
                System.out.printf("  acknowledged %d (both streams), lost %d, delivered twice %d, failed async sends %d of %d%n", acknowledged.size(), lost,
                        duplicated, stream.all().size() - stream.acknowledgedIds().size(), stream.all().size());
                double splitDeviation = Math.abs(healthyShare - 0.5) * 100;
                System.out.printf("RESULT P5 kill_recovery_ms=%d (target <= 3000) %s; slow_share_at_10s=%.1f%% (target <= 10%%) %s; "
                                + "healthy_split_deviation_pp=%.1f (target <= 5) %s;%s lost=%d%n",
                        recovered, Targets.P5_KILL_RECOVERY_MS.isMetBy(recovered) ? "MET" : "MISSED",
                        shareAt10 * 100, Targets.P5_SLOW_BROKER_SHARE_PERCENT.isMetBy(shareAt10 * 100) ? "MET" : "MISSED",
                        splitDeviation, Targets.P5_HEALTHY_SPLIT_PP.isMetBy(splitDeviation) ? "MET" : "MISSED",
                        silentResults, lost);
                List<Figure> figures = new ArrayList<>(List.of(
                        Figure.of("P5", String.format("IDC killed: until 99%% of sends succeed, %,d msgs/s async", rate))
                                .measured(recovered, "ms").target(Targets.P5_KILL_RECOVERY_MS)
                                .note(String.format("%d sends failed in the 10 s after; restarted IDC back >= 40%% %d ms after its restart",
                                        failedAfterKill, backAfterRestart)).build(),
                        Figure.of("P5", String.format("slow broker +%d ms: its share in second 10", slowMillis))
                                .measured(shareAt10 * 100, "%").target(Targets.P5_SLOW_BROKER_SHARE_PERCENT)
                                .note(String.format("<= 10%% after %d ms; back >= 40%% %d ms after healing", below10, backAt40)).build(),
                        Figure.of("P5", "healthy split off 50/50")
                                .measured(splitDeviation, "pp").target(Targets.P5_HEALTHY_SPLIT_PP).cpu(healthyCpu, healthySends)
                                .note(String.format("CPU over the first 12 s at %,d msgs/s", rate)).build()));
                figures.addAll(silentFigures);
                figures.add(Figure.of("R1", "acknowledged messages lost (IDC kill, slow broker" + (networkFaults ? ", network faults)" : ")"))
                        .measured(lost, "messages").target(Targets.R1_LOST_ACKNOWLEDGED)
                        .note(String.format("%,d acknowledged, %d delivered twice", acknowledged.size(), duplicated)).build());
                return figures;
            }
        }
    }

    private static void waitUntil(SendStream stream, long nanos) {
        while (stream.nowNanos() < nanos) {
            LockSupport.parkNanos(SECOND / 20); // the stream runs on its own thread; this only paces the report
        }
    }

    /** Milliseconds after {@code from} until the first full second whose share of {@code cluster} is at most {@code share}. */
    private static long firstSecondAtOrBelow(SendStream stream, String cluster, long from, double share) {
        for (long t = from; t + SECOND <= stream.nowNanos(); t += SECOND / 10) {
            if (SendStream.shareOf(stream.startedBetween(t, t + SECOND), cluster) <= share) {
                return (t + SECOND - from) / 1_000_000;
            }
        }
        return -1;
    }

    /** Waits until the last full second's share of {@code cluster} reaches {@code share}; milliseconds since {@code from}, or -1. */
    private static long waitForShare(SendStream stream, String cluster, long from, double share, int maxSeconds) {
        return SilentFaultPhases.waitForShare(stream.log(), cluster, from, share, maxSeconds);
    }

    /** Milliseconds from the kill to the end of the last 100 ms window (within 10 s) whose sends were under 99% successful. */
    private static long recoveryMillis(SendStream stream, long killedAt) {
        long window = SECOND / 10;
        long lastBad = killedAt;
        for (long from = killedAt; from < killedAt + 10 * SECOND; from += window) {
            if (SendStream.successRate(stream.startedBetween(from, from + window)) < 0.99) {
                lastBad = from + window;
            }
        }
        return (lastBad - killedAt) / 1_000_000;
    }
}
