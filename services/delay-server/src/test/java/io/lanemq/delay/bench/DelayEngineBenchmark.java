package io.lanemq.delay.bench;

import io.lanemq.delay.DelayEngine;
import io.lanemq.delay.DelayedRecord;
import io.lanemq.delay.RecoveryReport;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;

/**
 * The engine's own figures, with no broker: heap and disk with 10 million records pending,
 * schedule rate, restart-to-ready time, and firing precision against the real clock.
 *
 * <p>Lives with the tests (not shipped in the service jar) and runs in its own JVM with a fixed
 * 1 GiB heap so that "heap used after GC" is measured against a known ceiling:
 * <pre>
 *   mvn -q -o -pl services/delay-server -am install -DskipTests
 *   mvn -q -o -pl services/delay-server exec:exec@bench [-Dbench.records=10000000] [-Dbench.precision=10000]
 *       [-Dbench.threads=2] [-Dbench.flush=true] [-Dbench.dir=/tmp]
 * </pre>
 * Needs about 4 GB of disk for 10 million records (deleted at the end). The end-to-end figures
 * through real brokers (against RocketMQ's timer messages) belong to {@code testing/benchmarks/}.
 */
public final class DelayEngineBenchmark {

    private static final int BODY_BYTES = 300;
    private static final long DAY_MILLIS = Duration.ofDays(1).toMillis();

    private final int records = Integer.getInteger("bench.records", 10_000_000);
    private final int precisionRecords = Integer.getInteger("bench.precision", 10_000);
    private final int threads = Integer.getInteger("bench.threads", 2);
    /** false: leave the bulk load's 3.5 GB to kernel writeback during the restart and precision phases. */
    private final boolean flush = Boolean.parseBoolean(System.getProperty("bench.flush", "true"));
    private final Path dir;

    private final AtomicLong bulkDelivered = new AtomicLong();
    private final Histogram lagMicros = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
    private final AtomicLong early = new AtomicLong();
    private volatile CountDownLatch precisionDone = new CountDownLatch(0);

    private DelayEngineBenchmark(Path dir) {
        this.dir = dir;
    }

    public static void main(String[] args) throws Exception {
        Path base = Path.of(System.getProperty("bench.dir", System.getProperty("java.io.tmpdir")));
        Path dir = Files.createTempDirectory(base, "delay-bench-");
        try {
            new DelayEngineBenchmark(dir).run();
        } finally {
            deleteTree(dir);
        }
    }

    private DelayEngine open() throws Exception {
        return DelayEngine.builder().directory(dir).name("bench").sink(this::deliver).build();
    }

    /** Confirms at once, like a broker that acknowledges instantly; measures the precision records' lag. */
    private CompletableFuture<Void> deliver(DelayedRecord record) {
        if (record.topic().equals("precision")) {
            Instant now = Instant.now();
            long lag = (now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000) - record.dueAtMillis() * 1_000L;
            if (lag < 0) {
                early.incrementAndGet();
            }
            lagMicros.recordValue(Math.max(0, lag));
            precisionDone.countDown();
        } else {
            bulkDelivered.incrementAndGet();
        }
        return CompletableFuture.completedFuture(null);
    }

    private void run() throws Exception {
        System.out.printf(Locale.ROOT, "Delay engine benchmark: %,d records of %d B body, due over the next day, %d "
                + "scheduling threads, store %s%n", records, BODY_BYTES, threads, dir);
        System.out.printf(Locale.ROOT, "JVM: max heap %d MiB, %d CPUs%n", Runtime.getRuntime().maxMemory() >> 20,
                Runtime.getRuntime().availableProcessors());

        DelayEngine engine = open();
        long began = System.nanoTime();
        scheduleBulk(engine);
        double seconds = (System.nanoTime() - began) / 1e9;
        System.out.printf(Locale.ROOT, "schedule:   %,d records in %.1f s = %,.0f records/s%n", records, seconds,
                records / seconds);
        System.out.printf(Locale.ROOT, "pending:    %,d (%,d already due and delivered during the run)%n",
                engine.pendingCount(), bulkDelivered.get());
        System.out.printf(Locale.ROOT, "heap:       %,d MiB used after GC with %,d pending (target <= 512 MiB)%n",
                heapAfterGc() >> 20, engine.pendingCount());
        System.out.printf(Locale.ROOT, "disk:       %,d MiB on disk (%,d MiB by the engine's count), %.0f B per record%n",
                diskBytes() >> 20, engine.storeBytes() >> 20, (double) diskBytes() / records);

        if (flush) {
            // Forces the bulk load's dirty pages out now, so kernel writeback does not run into the phases after.
            long flushing = System.nanoTime();
            engine.flush();
            System.out.printf(Locale.ROOT, "flush:      fsync of every segment %,d ms%n",
                    (System.nanoTime() - flushing) / 1_000_000);
        }

        long closing = System.nanoTime();
        engine.close();
        long closeMillis = (System.nanoTime() - closing) / 1_000_000;
        long opening = System.nanoTime();
        engine = open();
        long readyMillis = (System.nanoTime() - opening) / 1_000_000;
        RecoveryReport report = engine.recoveryReport();
        System.out.printf(Locale.ROOT, "restart:    close %,d ms; reopen to ready %,d ms (target <= 30,000 ms): "
                        + "%,d segments, %,d records CRC-checked, %,d pending, %d dropped ranges%n", closeMillis,
                readyMillis, report.segments(), report.records(), report.pending(), report.dropped().size());
        System.out.printf(Locale.ROOT, "heap:       %,d MiB used after GC after restart%n", heapAfterGc() >> 20);

        precision(engine);
        engine.close();
    }

    private void scheduleBulk(DelayEngine engine) throws Exception {
        long now = System.currentTimeMillis();
        byte[] body = new byte[BODY_BYTES];
        ThreadLocalRandom.current().nextBytes(body);
        List<Thread> workers = new ArrayList<>();
        List<Exception> failures = new ArrayList<>();
        int perThread = records / threads;
        for (int t = 0; t < threads; t++) {
            int count = t == threads - 1 ? records - perThread * (threads - 1) : perThread;
            int worker = t;
            Thread thread = new Thread(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                try {
                    for (int i = 0; i < count; i++) {
                        engine.schedule(DelayedRecord.builder()
                                .dueAt(now + 1_000 + random.nextLong(DAY_MILLIS))
                                .target("order_paid", "cluster-a")
                                .keys(List.of("order-" + i))
                                .body(body)
                                .build());
                    }
                } catch (Exception e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            }, "bench-schedule-" + worker);
            workers.add(thread);
            thread.start();
        }
        for (Thread w : workers) {
            w.join();
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
    }

    private void precision(DelayEngine engine) throws Exception {
        precisionDone = new CountDownLatch(precisionRecords);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        byte[] body = new byte[BODY_BYTES];
        long storedLate = 0;
        long slowestScheduleNanos = 0;
        for (int i = 0; i < precisionRecords; i++) {
            // Each delay counts from its own schedule call, as a sender's would.
            long due = System.currentTimeMillis() + 100 + random.nextLong(9_900);
            long began = System.nanoTime();
            engine.schedule(DelayedRecord.builder().dueAt(due).target("precision", "cluster-a").body(body).build());
            slowestScheduleNanos = Math.max(slowestScheduleNanos, System.nanoTime() - began);
            if (System.currentTimeMillis() > due) {
                storedLate++; // the write took longer than the delay: late before the wheel ever saw it
            }
        }
        if (!precisionDone.await(60, TimeUnit.SECONDS)) {
            System.out.printf("precision:  only %,d of %,d delivered within 60 s%n",
                    precisionRecords - precisionDone.getCount(), precisionRecords);
        }
        System.out.printf(Locale.ROOT, "precision:  %,d records, 0.1-10 s delays, real clock, %,d pending alongside: "
                        + "actual - due p50 %.3f ms, p99 %.3f ms, max %.3f ms (target p99 <= 10 ms); %d early%n",
                lagMicros.getTotalCount(), engine.pendingCount(), lagMicros.getValueAtPercentile(50) / 1e3,
                lagMicros.getValueAtPercentile(99) / 1e3, lagMicros.getMaxValue() / 1e3, early.get());
        System.out.printf(Locale.ROOT, "            slowest schedule() call %.1f ms; %d records were stored only after their due "
                + "time%n", slowestScheduleNanos / 1e6, storedLate);
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private long diskBytes() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0;
                }
            }).sum();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    System.err.println("could not delete " + p + ": " + e);
                }
            });
        }
    }
}
