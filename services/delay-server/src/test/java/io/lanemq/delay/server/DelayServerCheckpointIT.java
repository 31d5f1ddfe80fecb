package io.lanemq.delay.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ledger checkpoint against real brokers: a graceful restart holds every pending offset again
 * from the checkpoint without reading one old internal-topic copy; a {@code kill -9} after a
 * periodic checkpoint re-reads only what was read since, and loses nothing.
 */
@Execution(ExecutionMode.CONCURRENT) // waits for due times on its own stack: see junit-platform.properties
class DelayServerCheckpointIT {

    @TempDir
    Path dir;

    @Test
    void aGracefulRestartRestoresEveryHeldOffsetAndReadsNoOldCopy() throws Exception {
        Path store = dir.resolve("store");
        try (DelayPlatform p = new DelayPlatform()) {
            List<DelayedSender.Sent> sent;
            long storeBytesBefore;
            try (DelayServer server = p.startServer(store, b -> b)) {
                p.warmUp();
                // Due 60-75 s on: the restart must find every record still held. Holding all 2,000 takes ~4 s on a
                // quiet machine. The CI failure here, reproduced locally, held 2,007: copies of sends given up on a
                // cold cluster (fixed in the failover), so "all held" never came.
                sent = DelayedSender.send(p.producer, DelayPlatform.TOPIC, "g", 2_000, 60_000, 75_000);
                await().atMost(Duration.ofSeconds(60)).until(() -> sum(server, DelayServerMetrics.HELD_OFFSETS) == sent.size());
                storeBytesBefore = (long) sum(server, DelayServerMetrics.STORE_BYTES);
            } // graceful: final commit, then the checkpoint
            assertThat(checkpoints(store)).as("one checkpoint per cluster").hasSize(2);

            long began = System.nanoTime();
            try (DelayServer server = p.startServer(store, b -> b)) {
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                        .until(() -> sum(server, DelayServerMetrics.HELD_OFFSETS) == sent.size());
                long readyMillis = (System.nanoTime() - began) / 1_000_000;
                assertThat(checkpoints(store)).as("a checkpoint is used once").isEmpty();
                // Something new is read on from the checkpoint's next offset.
                List<DelayedSender.Sent> after = DelayedSender.send(p.producer, DelayPlatform.TOPIC, "n", 100, 1_000, 3_000);
                await().atMost(Duration.ofSeconds(60)).until(() -> p.arrivals.countByKey.keySet()
                        .containsAll(after.stream().map(DelayedSender.Sent::key).toList()));

                await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                        .until(() -> p.arrivals.distinct() >= sent.size() + after.size());
                p.awaitEveryStoredCopy();
                double restored = sum(server, DelayServerMetrics.CHECKPOINT_RESTORED);
                double scheduled = sum(server, DelayServerMetrics.SCHEDULED);
                double skipped = sum(server, DelayServerMetrics.DUPLICATES_SKIPPED);
                System.out.printf("[DelayServerCheckpointIT] graceful restart with %d pending: every offset held again "
                                + "%d ms after start, %.0f restored from the checkpoint, %.0f records stored by the restarted "
                                + "server (the %d new ones), %.0f old copies skipped; store %d -> %.0f bytes; %d duplicates "
                                + "delivered, arrival minus due %s%n", sent.size(), readyMillis, restored, scheduled,
                        after.size(), skipped, storeBytesBefore, sum(server, DelayServerMetrics.STORE_BYTES),
                        p.arrivals.duplicates(), p.arrivals.lateness());
                assertThat(restored).isEqualTo(sent.size());
                assertThat(scheduled).as("no old copy read again").isEqualTo(after.size());
                assertThat(skipped).as("no old copy read again").isZero();
                assertThat(p.arrivals.countByKey.keySet()).containsAll(sent.stream().map(DelayedSender.Sent::key).toList());
                assertThat(p.arrivals.duplicates()).isZero();
                assertThat(p.arrivals.early()).isEmpty();
            }
        }
    }

    @Test
    void killNineAfterAPeriodicCheckpointLosesNothing() throws Exception {
        Path store = dir.resolve("store");
        String[] options = {"--checkpoint-interval-seconds", "15"};
        try (DelayPlatform p = new DelayPlatform()) {
            List<DelayedSender.Sent> before;
            List<DelayedSender.Sent> since;
            try (ServerProcess server = ServerProcess.start(p.config, store, dir.resolve("first.log"), options)) {
                p.warmUp();
                before = DelayedSender.send(p.producer, DelayPlatform.TOPIC, "b", 1_500, 40_000, 60_000);
                await().atMost(Duration.ofSeconds(60)).until(() -> server.metric("lanemq_delay_held_offsets") == before.size());
                // Wait for a checkpoint of every cluster begun after every offset was held.
                java.util.Map<String, Double> written = server.series("lanemq_delay_checkpoint_writes_total");
                await().atMost(Duration.ofSeconds(60)).until(() -> {
                    java.util.Map<String, Double> now = server.series("lanemq_delay_checkpoint_writes_total");
                    return now.size() == written.size()
                            && written.entrySet().stream().allMatch(e -> now.get(e.getKey()) >= e.getValue() + 1);
                });
                since = DelayedSender.send(p.producer, DelayPlatform.TOPIC, "s", 300, 40_000, 60_000);
                await().atMost(Duration.ofSeconds(30)).until(() -> server.metric("lanemq_delay_held_offsets")
                        == before.size() + since.size());
                server.kill9();
            }
            try (ServerProcess restarted = ServerProcess.start(p.config, store, dir.resolve("second.log"), options)) {
                int all = before.size() + since.size();
                await().atMost(Duration.ofSeconds(60)).until(() -> restarted.metric("lanemq_delay_held_offsets") == all);
                double restored = restarted.metric("lanemq_delay_checkpoint_restored_total");
                double skipped = restarted.metric("lanemq_delay_duplicates_skipped_total");
                double stored = restarted.metric("lanemq_delay_scheduled_total");
                await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                        .until(() -> p.arrivals.distinct() >= all);
                p.awaitEveryStoredCopy();
                System.out.printf("[DelayServerCheckpointIT] kill -9 after a periodic checkpoint of %d, with %d read since:"
                                + " %.0f restored from the checkpoint, copies read again: %.0f skipped as duplicates, %.0f"
                                + " appended to buckets on disk (dropped when loaded); all %d"
                                + " delivered, %d duplicates, arrival minus due %s%n", before.size(), since.size(), restored,
                        skipped, stored, p.arrivals.distinct(), p.arrivals.duplicates(), p.arrivals.lateness());
                // Some of the later records may have made it into a later checkpoint of their cluster.
                assertThat(restored).isBetween((double) before.size(), (double) all);
                assertThat(p.arrivals.countByKey.keySet()).containsAll(before.stream().map(DelayedSender.Sent::key).toList())
                        .containsAll(since.stream().map(DelayedSender.Sent::key).toList());
                assertThat(p.arrivals.early()).isEmpty();
            }
        }
    }

    private static double sum(DelayServer server, String meter) {
        return server.registry().find(meter).meters().stream()
                .mapToDouble(m -> m.measure().iterator().next().getValue()).sum();
    }

    private static List<Path> checkpoints(Path store) throws Exception {
        try (Stream<Path> files = Files.walk(store)) {
            return files.filter(f -> f.getFileName().toString().equals(LedgerCheckpoint.FILE_NAME)).toList();
        }
    }
}
