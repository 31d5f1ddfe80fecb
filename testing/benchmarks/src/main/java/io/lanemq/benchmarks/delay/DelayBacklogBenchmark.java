package io.lanemq.benchmarks.delay;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Consumer;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.Subscription;
import io.lanemq.benchmarks.cpu.CpuMeter;
import io.lanemq.benchmarks.report.Figure;
import io.lanemq.benchmarks.report.FigureBenchmark;
import io.lanemq.benchmarks.report.Targets;
import io.lanemq.benchmarks.produce.Throughput;
import io.lanemq.delay.server.DelayServer;
import io.lanemq.delay.server.DelayServerOptions;
import io.lanemq.localstack.LocalPlatform;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The delay server with a large backlog: N delayed messages (due over the next day) written through
 * the SDK to the internal topic of a local stack, then a delay server ingesting them. Prints the
 * server's ingest rate next to a raw producer's sync send rate measured in the same run, the heap
 * used with N pending (after a full GC), restart to ready after a graceful stop (the time until every
 * pending record's offset is held again, from the ledger checkpoint) on the same store,
 * and the delivery rate of a burst of records due within the same second.
 *
 * <p>Everything runs in this JVM next to the server (SDK clients included), so the heap figure is an
 * upper bound of the server's; the benchmark also prints the heap before the server started.
 */
@Command(name = "delay-backlog", mixinStandardHelpOptions = true,
        description = "Delay server with N pending (default 10 M, due over a day): ingest msgs/s vs raw sync send, "
                + "heap used after GC (target <= 512 MB), restart to ready: every offset held again (target <= 30 s), delivery msgs/s.")
public final class DelayBacklogBenchmark implements FigureBenchmark {

    private static final String TOPIC = "bench-backlog";
    private static final long DAY_MS = TimeUnit.DAYS.toMillis(1);
    private static final long MB = 1 << 20;
    /** The backlog the heap and restart targets are stated for. */
    static final int TARGET_PENDING = 10_000_000;

    @Option(names = "--pending", defaultValue = "10000000", description = "Delayed messages in the backlog (default: ${DEFAULT-VALUE}).")
    int pending;

    @Option(names = "--body-bytes", defaultValue = "200", description = "Body size; a stored record is ~100 B more (default: ${DEFAULT-VALUE}).")
    int bodyBytes;

    @Option(names = "--burst", defaultValue = "100000", description = "Records due within one second for the delivery phase (default: ${DEFAULT-VALUE}).")
    int burst;

    @Option(names = "--in-flight", defaultValue = "256", description = "Async sends in flight while loading (default: ${DEFAULT-VALUE}).")
    int inFlight;

    @Option(names = "--sync-threads", defaultValue = "8", description = "Threads of the raw sync send baseline (default: ${DEFAULT-VALUE}).")
    int syncThreads;

    @Option(names = "--sync-seconds", defaultValue = "10", description = "Length of the raw sync send baseline (default: ${DEFAULT-VALUE}).")
    int syncSeconds;

    @Option(names = "--reenqueue-after-seconds", defaultValue = "3600",
            description = "The server's reenqueueAfter; above the run's length so the backlog is not re-enqueued meanwhile "
                    + "(default: ${DEFAULT-VALUE}).")
    int reenqueueAfterSeconds;

    @Option(names = "--phase-timeout-minutes", defaultValue = "60", description = "Give up on a phase after this long (default: ${DEFAULT-VALUE}).")
    int phaseTimeoutMinutes;

    private byte[] body;

    @Override
    public List<Figure> measure() throws Exception {
        body = new byte[bodyBytes];
        String group = LocalPlatform.unique("bench-backlog-check");
        DelayServer server = null;
        try (ScratchStore store = ScratchStore.create("lanemq-delay-backlog");
             LocalPlatform platform = LocalPlatform.start()) {
            // All weight on IDC A: the internal topic, the raw baseline and the deliveries share one broker.
            platform.enableDelay().addTopic(TOPIC, 8, 100, 0, group);
            String rawTopic = LocalPlatform.unique("bench-backlog-raw");
            platform.stack().createTopic(rawTopic, 8);
            DelayServerOptions settings = DelayServerOptions.builder("file:" + platform.writeConfig(), store.path())
                    .metricsPort(0).reenqueueAfter(Duration.ofSeconds(reenqueueAfterSeconds)).build();
            System.out.printf("Delay backlog: %,d pending due over a day, %d-byte bodies, burst of %,d due at once%n",
                    pending, bodyBytes, burst);
            try (MessagingClient client = platform.client("bench-backlog");
                 Producer producer = client.createProducer(ProducerOptions.defaults())) {
                rawSyncRate(platform, rawTopic, 5); // warm-up: routes, connections, JIT
                double syncRate = rawSyncRate(platform, rawTopic, syncSeconds);
                System.out.printf("  raw producer sync send: %,.0f msgs/s (%d threads, %d s)%n", syncRate, syncThreads,
                        syncSeconds);

                long began = System.nanoTime();
                send(producer, "backlog-", pending, () -> System.currentTimeMillis() + TimeUnit.HOURS.toMillis(1)
                        + ThreadLocalRandom.current().nextLong(DAY_MS));
                System.out.printf("  backlog written to the internal topic (SDK async): %,.0f msgs/s%n",
                        pending / seconds(began));

                long heapBefore = usedHeapAfterGc();
                began = System.nanoTime();
                CpuMeter.Reading ingestBegan = CpuMeter.read();
                server = DelayServer.start(settings);
                ServerGauges gauges = new ServerGauges(server);
                await("ingest", () -> gauges.heldOffsets() >= pending && gauges.pending() >= pending);
                double ingestRate = pending / seconds(began);
                CpuMeter.Usage ingestCpu = CpuMeter.read().since(ingestBegan);
                System.out.printf("  server ingest (stored and held): %,.0f msgs/s, %.2f x raw sync send%n", ingestRate,
                        ingestRate / syncRate);

                long heap = usedHeapAfterGc();
                long ledger = gauges.ledgerBytes();
                System.out.printf("  heap used after GC with %,d pending: %,d MB (%,d MB before the server started: "
                                + "%.1f B per pending record); ledger's own estimate %,d MB (%.1f B per record); "
                                + "store %,d MB%n", gauges.pending(), heap / MB, heapBefore / MB,
                        (heap - heapBefore) / (double) pending, ledger / MB, ledger / (double) pending,
                        gauges.storeBytes() / MB);

                // Graceful: the final commit, then the ledger checkpoint the restart rebuilds its offsets from.
                long storeBeforeRestart = gauges.storeBytes();
                began = System.nanoTime();
                server.close();
                double stopped = seconds(began);
                began = System.nanoTime();
                server = DelayServer.start(settings);
                double opened = seconds(began);
                HttpClient http = HttpClient.newHttpClient();
                int port = server.httpPort();
                await("health", () -> healthy(http, port));
                double healthy = seconds(began);
                ServerGauges restarted = new ServerGauges(server);
                await("every offset held again", () -> restarted.heldOffsets() >= pending);
                double ready = seconds(began);
                System.out.printf("  restart (graceful stop with checkpoint in %.1f s): store open and reading in %.1f s, "
                                + "/readyz ready in %.1f s, every pending record's offset held again in %.1f s "
                                + "(%,d restored from the checkpoint; old copies read again: %,d stored, %,d skipped as "
                                + "duplicates); store %,d -> %,d MB%n", stopped, opened, healthy, ready,
                        restarted.restoredFromCheckpoint(), restarted.scheduled(), restarted.duplicatesSkipped(),
                        storeBeforeRestart / MB, restarted.storeBytes() / MB);

                double deliveryRate = deliverBurst(client, producer, restarted, group);

                Figure heapFigure = judgedAtTargetBacklog(pending,
                        Figure.of("P4", String.format("delay backlog: heap used after GC, %,d pending", pending))
                                .measured(heap / (double) MB, "MB").target(Targets.P4_BACKLOG_HEAP_MB)
                                .note(String.format("%,d MB before the server started; ledger %.1f B per record",
                                        heapBefore / MB, ledger / (double) pending))).build();
                Figure restartFigure = judgedAtTargetBacklog(pending,
                        Figure.of("P4", String.format("delay backlog: restart to every offset held, %,d pending", pending))
                                .measured(ready, "s").target(Targets.P4_RESTART_SECONDS)
                                .note(String.format("/readyz ready in %.1f s", healthy))).build();
                System.out.printf("RESULT delay-backlog pending=%d sync_send=%.0f ingest=%.0f ingest_ratio=%.2f "
                                + "delivery=%.0f heap_mb=%d heap_ratio=%.3f ledger_b_per_record=%.1f health_s=%.1f "
                                + "ready_s=%.1f targets (for %,d pending) heap<=512MB %s restart-to-ready(every offset held)<=30s %s%n",
                        pending, syncRate, ingestRate, ingestRate / syncRate, deliveryRate, heap / MB, heap / (512.0 * MB),
                        ledger / (double) pending, healthy, ready, TARGET_PENDING, verdict(heapFigure), verdict(restartFigure));
                return List.of(
                        heapFigure,
                        restartFigure,
                        Figure.of("P4", "delay backlog: server ingest vs raw sync send")
                                .measured(ingestRate, "msgs/s").baseline(syncRate).cpu(ingestCpu, pending)
                                .note(String.format("burst delivery %,.0f msgs/s", deliveryRate)).build());
            } finally {
                if (server != null) {
                    server.close();
                }
            }
        }
    }

    /**
     * The heap and restart targets are stated for {@value #TARGET_PENDING} pending: a smaller backlog (the quick mode's)
     * is shown beside the target without a verdict, since passing at a fiftieth of the load says nothing of the target.
     */
    static Figure.Builder judgedAtTargetBacklog(int pending, Figure.Builder figure) {
        return pending >= TARGET_PENDING ? figure
                : figure.withoutVerdict(String.format("%,d pending, the target is for %,d", pending, TARGET_PENDING));
    }

    private static String verdict(Figure figure) {
        return switch (figure.outcome()) {
            case PASS -> "MET";
            case MISS -> "MISSED";
            default -> "NO-VERDICT";
        };
    }

    /** The baseline: a raw DefaultMQProducer's sync sends of the same body to the same broker. */
    private double rawSyncRate(LocalPlatform platform, String rawTopic, int seconds) throws Exception {
        DefaultMQProducer raw = new DefaultMQProducer(LocalPlatform.unique("bench-backlog-raw-producer"));
        raw.setNamesrvAddr(platform.idcA().nameServerAddress());
        raw.setInstanceName("bench-backlog-raw");
        raw.start();
        try {
            return Throughput.measure(() -> {
                if (raw.send(new org.apache.rocketmq.common.message.Message(rawTopic, body)).getSendStatus()
                        != SendStatus.SEND_OK) {
                    throw new IllegalStateException("raw send not OK");
                }
            }, syncThreads, seconds);
        } finally {
            raw.shutdown();
        }
    }

    /** {@code count} delayed messages through the SDK, at most {@code inFlight} unacknowledged; fails on a failed send. */
    private void send(Producer producer, String keyPrefix, int count, LongSupplier dueAt) throws InterruptedException {
        Semaphore permits = new Semaphore(inFlight);
        AtomicLong failed = new AtomicLong();
        AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        for (int i = 0; i < count; i++) {
            permits.acquire();
            Message m = Message.builder(TOPIC).keys(keyPrefix + i).body(body).deliverAt(Instant.ofEpochMilli(dueAt.getAsLong()))
                    .build();
            producer.sendAsync(m).whenComplete((r, e) -> {
                if (e != null) {
                    failed.incrementAndGet();
                    firstFailure.compareAndSet(null, e);
                }
                permits.release();
            });
        }
        permits.acquire(inFlight);
        if (failed.get() > 0) {
            throw new IllegalStateException(failed.get() + " of " + count + " delayed sends failed", firstFailure.get());
        }
    }

    /** A burst due at the same second, sent after the backlog; delivery rate from the first due time to the last acknowledgement. */
    private double deliverBurst(MessagingClient client, Producer producer, ServerGauges gauges, String group)
            throws Exception {
        LongAdder arrived = new LongAdder();
        try (Consumer consumer = client.subscribe(Subscription.builder(TOPIC, group).build(), m -> {
            if (m.keys().get(0).startsWith("burst-")) {
                arrived.increment();
            }
            return ConsumeResult.SUCCESS;
        })) {
            long deliveredBefore = gauges.delivered();
            long failedBefore = gauges.deliveryFailures();
            // Due once the burst is surely stored: loading ran at the rate printed above.
            long due = System.currentTimeMillis() + 20_000 + burst / 5;
            long began = System.nanoTime();
            send(producer, "burst-", burst, () -> due + ThreadLocalRandom.current().nextLong(1_000));
            await("burst stored", () -> gauges.heldOffsets() >= pending + burst || System.currentTimeMillis() >= due);
            System.out.printf("  burst of %,d written and stored in %.1f s; %s%n", burst, seconds(began),
                    System.currentTimeMillis() < due ? "before its due time" : "NOT before its due time (rate below is low)");
            await("burst delivered", () -> gauges.delivered() - deliveredBefore >= burst);
            double deliverySeconds = (System.currentTimeMillis() - due) / 1000.0;
            double rate = burst / deliverySeconds;
            System.out.printf("  delivery: %,d due within 1 s delivered (broker-acknowledged) %.1f s after the first "
                    + "was due: %,.0f msgs/s (%,d failed attempts retried, e.g. broker busy)%n", burst, deliverySeconds, rate,
                    gauges.deliveryFailures() - failedBefore);
            await("burst consumed", () -> arrived.sum() >= burst);
            System.out.printf("  all consumed %.1f s after the first was due%n", (System.currentTimeMillis() - due) / 1000.0);
            return rate;
        }
    }

    private static boolean healthy(HttpClient http, int port) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + io.lanemq.service.http.ServiceEndpoints.READINESS_PATH))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200;
        } catch (Exception e) {
            return false;
        }
    }

    /** Polls every 50 ms (a benchmark's wait: the time it ends is what is measured). */
    private void await(String phase, BooleanSupplier done) {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(phaseTimeoutMinutes);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("phase '" + phase + "' did not finish within " + phaseTimeoutMinutes + " min");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static double seconds(long beganNanos) {
        return (System.nanoTime() - beganNanos) / 1e9;
    }
}
