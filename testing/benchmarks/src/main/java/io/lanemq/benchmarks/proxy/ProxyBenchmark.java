package io.lanemq.benchmarks.proxy;

import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.benchmarks.cpu.CpuMeter;
import io.lanemq.benchmarks.report.Figure;
import io.lanemq.benchmarks.report.FigureBenchmark;
import io.lanemq.benchmarks.report.Targets;
import io.lanemq.config.ConsumptionMode;
import io.lanemq.localstack.LocalPlatform;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * P3: the consumer proxy against direct consumption, same stack, same run, one 4-queue logic topic on one
 * cluster. A backlog is drained first by a DIRECT-mode group of few consumers, then by a PROXY-mode group
 * of many consumers pushed by a real in-process proxy (TLS); both groups start from the earliest offset,
 * so they drain the same messages. Each drain is measured in steady state: from the moment the group
 * received the warm-up messages (the JIT has compiled its path) and, for the proxy, every consumer is
 * connected, to the last message; the shares are counted over the same window. Then both groups, still
 * subscribed, receive a paced stream stamped with its send time, giving end-to-end latency of each path
 * under the same load.
 */
@Command(name = "proxy", mixinStandardHelpOptions = true,
        description = "P3: consumer proxy push to many consumers vs SDK DIRECT consumption (targets: CPU per message <= 1.5x "
                + "DIRECT, throughput ratio reported beside it; per-consumer share within 25%% of the mean; added p99 <= 5 ms).")
public final class ProxyBenchmark implements FigureBenchmark {
    private static final String TOPIC = "bench-proxy";
    private static final int QUEUES = 4;

    @Option(names = "--backlog", defaultValue = "100000", description = "Messages measured in each group's drain (default: ${DEFAULT-VALUE}).")
    long backlog;

    @Option(names = "--warmup", defaultValue = "30000",
            description = "Messages preloaded ahead of the backlog, drained by each group before its measurement begins (default: ${DEFAULT-VALUE}).")
    long warmup;

    @Option(names = "--body-bytes", defaultValue = "300", description = "Body size (default: ${DEFAULT-VALUE}).")
    int bodyBytes;

    @Option(names = "--direct-consumers", defaultValue = "4", description = "Consumers of the DIRECT-mode group (default: ${DEFAULT-VALUE}).")
    int directConsumers;

    @Option(names = "--proxy-consumers", defaultValue = "32", description = "Consumers of the PROXY-mode group (default: ${DEFAULT-VALUE}).")
    int proxyConsumers;

    @Option(names = "--consumer-threads", defaultValue = "4",
            description = "Listener threads of every consumer in total, both groups (the platform's threads): a DIRECT consumer"
                    + " splits them over the two clusters, so with the backlog on one cluster half of them idle, as they would"
                    + " in production; a PROXY consumer grants twice as many credits (default: ${DEFAULT-VALUE}).")
    int consumerThreads;

    @Option(names = "--latency-rate", defaultValue = "1000", description = "Messages per second of the latency phase (default: ${DEFAULT-VALUE}).")
    int latencyRate;

    @Option(names = "--latency-seconds", defaultValue = "15", description = "Length of the latency phase (default: ${DEFAULT-VALUE}).")
    int latencySeconds;

    @Option(names = "--drain-timeout-seconds", defaultValue = "180", description = "Longest wait for one drain (default: ${DEFAULT-VALUE}).")
    int drainTimeoutSeconds;

    @Override
    public List<Figure> measure() throws Exception {
        System.out.printf("P3 proxy: %,d-message backlog (after a %,d-message warm-up) of %d-byte bodies on %d queues; DIRECT %d consumers"
                + " vs PROXY %d consumers, %d listener threads each; latency at %,d msgs/s for %d s%n", backlog, warmup, bodyBytes, QUEUES,
                directConsumers, proxyConsumers, consumerThreads, latencyRate, latencySeconds);
        try (LocalPlatform platform = LocalPlatform.start()) {
            String directGroup = LocalPlatform.unique("bench-direct");
            String proxyGroup = LocalPlatform.unique("bench-proxied");
            // All weight on IDC A: one cluster, 4 queues, for both paths.
            platform.consumerThreads(consumerThreads).addTopic(TOPIC, QUEUES, 100, 0, directGroup, proxyGroup);
            try (InProcessProxy proxy = InProcessProxy.start(platform);
                 // A PROXY-mode group needs the proxy named in the configuration, so the mode comes second.
                 MessagingClient producerClient = platform.consumerMode(TOPIC, proxyGroup, ConsumptionMode.PROXY).client("bench-proxy-producer");
                 Producer producer = producerClient.createProducer(ProducerOptions.defaults())) {
                PacedSender sender = new PacedSender(producer, TOPIC, bodyBytes);
                preload(sender);
                try (ConsumerFleet direct = ConsumerFleet.subscribe(directConsumers, () -> platform.client("bench-direct"), TOPIC, directGroup)) {
                    Drain directDrain = drain("DIRECT", direct, () -> true);
                    try (ConsumerFleet proxied = ConsumerFleet.subscribe(proxyConsumers, proxy::client, TOPIC, proxyGroup)) {
                        Drain proxyDrain;
                        try (Progress progress = Progress.every(2, () -> String.format("PROXY: %,d distinct, %d consumers connected; %s",
                                proxied.distinctCount(), proxy.consumers(), proxy.holdings()))) {
                            proxyDrain = drain("PROXY", proxied, () -> proxy.consumers() >= proxyConsumers);
                        }
                        long[] shares = proxied.countsSince(proxyDrain.mark());
                        ShareSpread spread = ShareSpread.of(shares);
                        System.out.printf("  PROXY per-consumer deliveries in the window: min %,d max %,d mean %,.0f, worst %.1f%% from the mean; %s%n",
                                spread.min(), spread.max(), spread.mean(), spread.worstDeviation() * 100, Arrays.toString(shares));
                        boolean latencyComplete = measureLatency(sender, direct, proxied);
                        System.out.printf("  proxy redeliveries: %.0f, failed sends: %d, deliveries per pushed frame: %.1f%n", proxy.redeliveries(),
                                sender.failed(), proxy.deliveriesPerFrame());
                        String incomplete = incomplete(directDrain, proxyDrain, latencyComplete, sender.failed());
                        return report(directDrain, proxyDrain, spread, direct.latency(), proxied.latency(), incomplete);
                    }
                }
            }
        }
    }

    private void preload(PacedSender sender) throws InterruptedException {
        long total = warmup + backlog;
        long start = System.nanoTime();
        sender.sendBacklog(total);
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("  preload: %,d messages in %.1f s (%,.0f msgs/s), %d failed%n", total, seconds, total / seconds, sender.failed());
    }

    /**
     * A drain's measurement: its window's start, its rate (to the last message, or to the timeout when the drain did
     * not complete), whether every message arrived, and the CPU it cost.
     */
    record Drain(ConsumerFleet.Mark mark, double rate, long messages, boolean complete, CpuMeter.Usage cpu) {

        double cpuNanosPerMessage() {
            return messages == 0 ? 0 : (double) (cpu.ownCpuNanos() + cpu.childCpuNanos()) / messages;
        }
    }

    /** @param ready besides the warm-up, what must hold before the window opens */
    private Drain drain(String path, ConsumerFleet fleet, BooleanSupplier ready) {
        long total = warmup + backlog;
        long start = System.nanoTime();
        long timeout = TimeUnit.SECONDS.toNanos(drainTimeoutSeconds);
        ConsumerFleet.Mark mark = fleet.markAfter(warmup, ready, total, timeout);
        CpuMeter.Reading windowOpened = CpuMeter.read();
        boolean drained = fleet.awaitDistinct(total, timeout);
        long end = drained ? fleet.lastReceiptNanos() : System.nanoTime();
        CpuMeter.Usage cpu = CpuMeter.read().since(windowOpened);
        double rate = fleet.rateSince(mark, end);
        System.out.printf("  %s drain: %,d distinct of %,d (%,d deliveries) %.1f s after subscribing; window opened after %,d"
                        + " (%.1f s), %,.0f msgs/s from then to the last receipt (to the timeout if it timed out)%s%n",
                path, fleet.distinctCount(), total, fleet.deliveries(), (System.nanoTime() - start) / 1e9, mark.distinct(),
                (mark.nanos() - start) / 1e9, rate, drained ? "" : " (TIMED OUT)");
        long messages = fleet.distinctCount() - mark.distinct();
        System.out.printf("  %s drain window: %s%n", path, cpu.perThousand(messages));
        return new Drain(mark, rate, messages, drained, cpu);
    }

    /** @return whether every message of the phase reached both groups */
    private boolean measureLatency(PacedSender sender, ConsumerFleet direct, ConsumerFleet proxied) throws InterruptedException {
        CpuMeter.Reading began = CpuMeter.read();
        long sent = sender.sendPaced(latencyRate, latencySeconds);
        System.out.printf("  latency phase, while sending: %.2f cores busy%n", CpuMeter.read().since(began).cores());
        long timeout = TimeUnit.SECONDS.toNanos(30);
        boolean complete = direct.awaitLatencySamples(sent, timeout) & proxied.awaitLatencySamples(sent, timeout);
        System.out.printf("  latency phase: %,d sent; DIRECT p50 %.2f ms p99 %.2f ms (%,d samples); PROXY p50 %.2f ms p99 %.2f ms (%,d samples)%s%n",
                sent, direct.latency().percentileMillis(0.50), direct.latency().percentileMillis(0.99), direct.latency().count(),
                proxied.latency().percentileMillis(0.50), proxied.latency().percentileMillis(0.99), proxied.latency().count(),
                complete ? "" : " (not every message arrived within 30 s)");
        return complete;
    }

    /**
     * What keeps the figures from counting, empty when nothing does: every row needs every message of both drains and
     * of the latency phase to have arrived and every send to have been accepted, or a figure would be computed over
     * the messages that made it only.
     */
    static String incomplete(Drain direct, Drain proxy, boolean latencyComplete, long failedSends) {
        List<String> problems = new ArrayList<>();
        if (!direct.complete()) {
            problems.add("DIRECT drain timed out");
        }
        if (!proxy.complete()) {
            problems.add("PROXY drain timed out");
        }
        if (!latencyComplete) {
            problems.add("latency phase incomplete");
        }
        if (failedSends > 0) {
            problems.add(failedSends + " sends failed");
        }
        return String.join(", ", problems);
    }

    private List<Figure> report(Drain directDrain, Drain proxyDrain, ShareSpread spread, LatencyRecorder direct, LatencyRecorder proxied,
                                String incomplete) {
        boolean complete = incomplete.isEmpty();
        double directRate = directDrain.rate();
        double proxyRate = proxyDrain.rate();
        double ratio = directRate == 0 ? 0 : proxyRate / directRate;
        double cpuRatio = directDrain.cpuNanosPerMessage() == 0 ? 0 : proxyDrain.cpuNanosPerMessage() / directDrain.cpuNanosPerMessage();
        // Both drains keep every core busy on a small machine, so their rates stand in the inverse ratio of their CPU per message.
        System.out.printf("  CPU per message, PROXY path (proxy, consumers, broker) / DIRECT path: %.2f; with every core busy the"
                + " throughput ratio cannot exceed %.2f on one machine%n", cpuRatio, cpuRatio == 0 ? 0 : 1 / cpuRatio);
        double addedP99 = proxied.percentileMillis(0.99) - direct.percentileMillis(0.99);
        System.out.printf("RESULT P3 direct=%,.0f msgs/s proxy=%,.0f msgs/s ratio=%.3f; cpu_per_message_ratio=%.2f %s %s;"
                        + " share_spread=%.1f%% %s %s; p99 direct=%.2f ms proxy=%.2f ms added=%.2f ms %s %s%n",
                directRate, proxyRate, ratio, cpuRatio, Targets.P3_PROXY_CPU_PER_MESSAGE, verdict(complete && Targets.P3_PROXY_CPU_PER_MESSAGE.isMetBy(cpuRatio)),
                spread.worstDeviation() * 100, Targets.P3_SHARE_SPREAD_PERCENT,
                verdict(complete && Targets.P3_SHARE_SPREAD_PERCENT.isMetBy(spread.worstDeviation() * 100)),
                direct.percentileMillis(0.99), proxied.percentileMillis(0.99), addedP99, Targets.P3_ADDED_P99_MS,
                verdict(complete && Targets.P3_ADDED_P99_MS.isMetBy(addedP99)));
        double proxyCpuMs = proxyDrain.cpuNanosPerMessage() / 1e6;
        double directCpuMs = directDrain.cpuNanosPerMessage() / 1e6;
        String shape = String.format("%d consumers vs DIRECT %d, %d queues", proxyConsumers, directConsumers, QUEUES);
        return List.of(
                Figure.of("P3", "proxy push: CPU per message vs DIRECT, " + shape)
                        .measured(proxyCpuMs, "CPU-ms/msg").baseline(directCpuMs).target(Targets.P3_PROXY_CPU_PER_MESSAGE)
                        .cpuMsPerMessage(proxyCpuMs)
                        .require(complete, incomplete).note(String.format("drain of %,d; throughput ratio %.2f (next row)", backlog, ratio)).build(),
                Figure.of("P3", "proxy push: drain throughput vs DIRECT, " + shape)
                        .measured(proxyRate, "msgs/s").baseline(directRate).cpuMsPerMessage(proxyCpuMs)
                        .require(complete, incomplete).note(String.format("both drains keep every core busy: ceiling %.2f on one machine", cpuRatio == 0 ? 0 : 1 / cpuRatio))
                        .build(),
                Figure.of("P3", "proxy push: worst consumer's share off the mean")
                        .measured(spread.worstDeviation() * 100, "%").target(Targets.P3_SHARE_SPREAD_PERCENT)
                        .require(complete, incomplete).note(String.format("min %,d max %,d mean %,.0f deliveries", spread.min(), spread.max(), spread.mean())).build(),
                Figure.of("P3", String.format("proxy push: added p99 at %,d msgs/s", latencyRate))
                        .measured(addedP99, "ms").target(Targets.P3_ADDED_P99_MS)
                        .require(complete, incomplete).note(String.format("p99 DIRECT %.2f ms, PROXY %.2f ms", direct.percentileMillis(0.99), proxied.percentileMillis(0.99)))
                        .build());
    }

    private static String verdict(boolean met) {
        return met ? "MET" : "MISSED";
    }
}
