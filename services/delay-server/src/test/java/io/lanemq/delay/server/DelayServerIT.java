package io.lanemq.delay.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.CancelOutcome;
import io.lanemq.delay.DroppedRange;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.io.TempDir;

/** The delay server in this JVM against real brokers: delivery, cancel, re-enqueue, a corrupt store. */
@Execution(ExecutionMode.CONCURRENT) // waits for due times on its own stack: see junit-platform.properties
class DelayServerIT {

    @TempDir
    Path store;

    @Test
    void tenThousandRandomDelaysArriveOnceAndNeverBeforeTheirDueTime() throws Exception {
        try (DelayPlatform p = new DelayPlatform(); DelayServer server = p.startServer(store, b -> b)) {
            p.warmUp();
            long began = System.nanoTime();
            List<DelayedSender.Sent> sent = DelayedSender.send(p.producer, DelayPlatform.TOPIC, "m", 10_000, 100, 10_000);
            long sendMillis = (System.nanoTime() - began) / 1_000_000;

            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                    .until(() -> p.arrivals.distinct() >= sent.size());
            System.out.println("[DelayServerIT] 10,000 delays of 0.1-10 s, sent in " + (sendMillis / 1000.0)
                    + " s; arrival at the consumer minus due: " + p.arrivals.lateness() + "; of those with delays of 5 s or"
                    + " more: " + p.arrivals.latenessOfDelaysOver(5_000) + "; broker ack of the server's send minus due: "
                    + serverLag(server) + "; duplicates " + p.arrivals.duplicates() + " (sends retried or failed, each may"
                    + " store a copy: " + p.copiesAllowedBeyondOne(server) + ")");
            assertThat(p.arrivals.countByKey.keySet()).containsExactlyInAnyOrderElementsOf(
                    sent.stream().map(DelayedSender.Sent::key).toList());
            p.assertEveryDuplicateIsARetriedSend(server);
            assertThat(p.arrivals.early()).isEmpty();
        }
    }

    @Test
    void aCancelBeforeDueMeansNeverDeliveredAndAfterDeliveryItSaysAlreadyDelivered() throws Exception {
        try (DelayPlatform p = new DelayPlatform(); DelayServer server = p.startServer(store, b -> b)) {
            p.warmUp();
            List<DelayedSender.Sent> sent = DelayedSender.send(p.producer, DelayPlatform.TOPIC, "c", 2, 4_000, 4_000);
            DelayedSender.Sent cancelled = sent.get(0);
            DelayedSender.Sent kept = sent.get(1);

            assertThat(p.producer.cancelDelayed(cancelled.delayId())).isEqualTo(CancelOutcome.CANCELLED);
            assertThat(p.producer.cancelDelayed(cancelled.delayId())).isEqualTo(CancelOutcome.ALREADY_CANCELLED);
            await().atMost(Duration.ofSeconds(60)).until(() -> p.arrivals.countByKey.containsKey(kept.key()));
            // Both were due at the same millisecond (within the send); give the cancelled one a further second to show up.
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
                    .until(() -> !p.arrivals.countByKey.containsKey(cancelled.key()));

            assertThat(p.producer.cancelDelayed(kept.delayId())).isEqualTo(CancelOutcome.ALREADY_DELIVERED);
        }
    }

    @Test
    void recordsHeldLongerThanReenqueueAfterAreSentUpstreamAgainAndStillDeliveredOnce() throws Exception {
        try (DelayPlatform p = new DelayPlatform();
             DelayServer server = p.startServer(store, b -> b.reenqueueAfter(Duration.ofSeconds(2))
                     .commitInterval(Duration.ofMillis(200)))) {
            p.warmUp();
            List<DelayedSender.Sent> sent = DelayedSender.send(p.producer, DelayPlatform.TOPIC, "r", 200, 8_000, 9_000);

            await().atMost(Duration.ofSeconds(90)).until(() -> p.arrivals.distinct() >= sent.size());
            double reenqueued = server.registry().find(DelayServerMetrics.REENQUEUES).counters().stream()
                    .mapToDouble(c -> c.count()).sum();
            System.out.println("[DelayServerIT] 200 delays of 8-9 s with reenqueueAfter 2 s: " + (long) reenqueued
                    + " re-enqueues, arrival minus due " + p.arrivals.lateness() + ", duplicates " + p.arrivals.duplicates()
                    + " (sends retried or failed: " + p.copiesAllowedBeyondOne(server) + ")");
            assertThat(reenqueued).isGreaterThanOrEqualTo(sent.size()); // each held its offset at least 2 s
            p.assertEveryDuplicateIsARetriedSend(server);
            assertThat(p.arrivals.early()).isEmpty();
        }
    }

    @Test
    void aCorruptLastRecordIsDroppedAtRestartAndReadAgainFromTheInternalTopic() throws Exception {
        try (DelayPlatform p = new DelayPlatform()) {
            List<DelayedSender.Sent> sent;
            try (DelayServer server = p.startServer(store, b -> b)) {
                p.warmUp();
                // Due after the restart (see the margin printed, to the first due time): a record delivered before the
                // stop would be committed past.
                sent = DelayedSender.send(p.producer, DelayPlatform.TOPIC, "x", 50, 15_000, 16_000);
                await().atMost(Duration.ofSeconds(20)).until(() -> pending(server) == sent.size());
            } // graceful: nothing delivered, so nothing committed past these records
            Path segment = largestSegment(store);
            flipLastByte(segment);

            try (DelayServer server = p.startServer(store, b -> b)) {
                System.out.printf("[DelayServerIT] restarted on the corrupt store %d ms before the first record was due%n",
                        DelayServerCheckpointIT.firstDue(sent) - System.currentTimeMillis());
                List<DroppedRange> dropped = new ArrayList<>();
                for (String cluster : List.of(p.platform.idcA().clusterName(), p.platform.idcB().clusterName())) {
                    dropped.addAll(server.engine(cluster).recoveryReport().dropped());
                }
                assertThat(dropped).singleElement().satisfies(d -> {
                    assertThat(d.segment()).isEqualTo(segment);
                    assertThat(d.kind()).isEqualTo(DroppedRange.Kind.TORN_TAIL);
                });
                await().atMost(Duration.ofSeconds(90)).until(() -> p.arrivals.distinct() >= sent.size());
                p.awaitEveryStoredCopy();
                p.assertEveryDuplicateIsARetriedSend(server);
                assertThat(p.arrivals.early()).isEmpty();
            }
        }
    }

    private static String serverLag(DelayServer server) {
        StringBuilder out = new StringBuilder();
        server.registry().find(DelayServerMetrics.DUE_LAG).timers().forEach(t -> {
            out.append(t.getId().getTag(DelayServerMetrics.TAG_CLUSTER)).append(": n=").append(t.count());
            for (var p : t.takeSnapshot().percentileValues()) {
                out.append(String.format(" p%.0f=%.0f ms", p.percentile() * 100, p.value(TimeUnit.MILLISECONDS)));
            }
            out.append(String.format(" max=%.0f ms; ", t.max(TimeUnit.MILLISECONDS)));
        });
        return out.toString();
    }

    private static long pending(DelayServer server) {
        return server.registry().find(DelayServerMetrics.PENDING).gauges().stream()
                .mapToLong(g -> (long) g.value()).sum();
    }

    static Path largestSegment(Path store) throws Exception {
        try (Stream<Path> files = Files.walk(store)) {
            return files.filter(f -> f.toString().endsWith(".seg"))
                    .max(Comparator.comparingLong(f -> f.toFile().length())).orElseThrow();
        }
    }

    /** The last byte of a segment is its last record's CRC: what a torn final write leaves wrong. */
    static void flipLastByte(Path file) throws Exception {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            long at = ch.size() - 1;
            ch.read(b, at);
            b.put(0, (byte) (b.get(0) ^ 0x5A)).rewind();
            ch.write(b, at);
        }
    }
}
