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
            long heldAtStop;
            long copiesAtStop;
            try (DelayServer server = p.startServer(store, b -> b)) {
                p.warmUp();
                long copiesBefore = p.internalCopies();
                // Due 35-37 s on: the restart must find every record still held, and sending, holding, the stop and
                // the restart take seconds (see the margin printed, to the first due time: a wider spread would only
                // make the test wait longer). Every copy stored is held: a send given up on a slow cluster and stored
                // there anyway is held by both clusters' sides.
                sent = DelayedSender.send(p.producer, DelayPlatform.TOPIC, "g", 2_000, 35_000, 37_000);
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
                    double held = sum(server, DelayServerMetrics.HELD_OFFSETS);
                    return held >= sent.size() && held == p.internalCopies() - copiesBefore;
                });
                heldAtStop = (long) sum(server, DelayServerMetrics.HELD_OFFSETS);
                copiesAtStop = p.internalCopies();
                storeBytesBefore = (long) sum(server, DelayServerMetrics.STORE_BYTES);
            } // graceful: final commit, then the checkpoint
            assertThat(checkpoints(store)).as("one checkpoint per cluster").hasSize(2);

            long began = System.nanoTime();
            try (DelayServer server = p.startServer(store, b -> b)) {
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                        .until(() -> sum(server, DelayServerMetrics.HELD_OFFSETS) >= heldAtStop);
                long readyMillis = (System.nanoTime() - began) / 1_000_000;
                long marginMillis = firstDue(sent) - System.currentTimeMillis();
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
                long copiesSinceStop = p.internalCopies() - copiesAtStop;
                System.out.printf("[DelayServerCheckpointIT] graceful restart with %d pending (%d offsets held): every "
                                + "offset held again %d ms after start (%d ms before the first was due), %.0f restored from the checkpoint, %.0f records "
                                + "stored by the restarted server (the %d new ones; %d copies stored since the stop), %.0f "
                                + "old copies skipped; store %d -> %.0f bytes; %d duplicates delivered (sends retried or "
                                + "failed: %d), arrival minus due %s%n", sent.size(), heldAtStop, readyMillis, marginMillis, restored,
                        scheduled, after.size(), copiesSinceStop, skipped, storeBytesBefore,
                        sum(server, DelayServerMetrics.STORE_BYTES), p.arrivals.duplicates(),
                        p.copiesAllowedBeyondOne(server), p.arrivals.lateness());
                assertThat(restored).isEqualTo(heldAtStop);
                assertThat(scheduled).as("no old copy read again: only the copies stored since the stop")
                        .isEqualTo(copiesSinceStop);
                assertThat(skipped).as("no old copy read again").isZero();
                assertThat(p.arrivals.countByKey.keySet()).containsAll(sent.stream().map(DelayedSender.Sent::key).toList());
                p.assertEveryDuplicateIsARetriedSend(server);
                assertThat(p.arrivals.early()).isEmpty();
            }
        }
    }

    @Test
    void killNineAfterAPeriodicCheckpointLosesNothing() throws Exception {
        Path store = dir.resolve("store");
        // A checkpoint every 5 s: the test waits for one begun after every offset was held.
        String[] options = {"--checkpoint-interval-seconds", "5"};
        try (DelayPlatform p = new DelayPlatform()) {
            List<DelayedSender.Sent> before;
            List<DelayedSender.Sent> since;
            long copiesBefore;
            try (ServerProcess server = ServerProcess.start(p.config, store, dir.resolve("first.log"), options)) {
                p.warmUp();
                copiesBefore = p.internalCopies();
                // Due after the kill and the restart (see the margin printed, to the first due time of either batch:
                // a wider spread would only make the test wait longer): the restart must find all still held.
                before = DelayedSender.send(p.producer, DelayPlatform.TOPIC, "b", 1_500, 40_000, 42_000);
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                        .until(() -> heldEveryCopy(server, p, copiesBefore, before.size()));
                // Wait for a checkpoint of every cluster begun after every offset was held: the second one written
                // from here, since the first may have begun before (a cluster writes its checkpoints one after another).
                java.util.Map<String, Double> written = server.series("lanemq_delay_checkpoint_writes_total");
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
                    java.util.Map<String, Double> now = server.series("lanemq_delay_checkpoint_writes_total");
                    return now.size() == written.size()
                            && written.entrySet().stream().allMatch(e -> now.get(e.getKey()) >= e.getValue() + 2);
                });
                since = DelayedSender.send(p.producer, DelayPlatform.TOPIC, "s", 300, 30_000, 32_000);
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                        .until(() -> heldEveryCopy(server, p, copiesBefore, before.size() + since.size()));
                server.kill9();
            }
            try (ServerProcess restarted = ServerProcess.start(p.config, store, dir.resolve("second.log"), options)) {
                int all = before.size() + since.size();
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                        .until(() -> heldEveryCopy(restarted, p, copiesBefore, all));
                long marginMillis = Math.min(firstDue(before), firstDue(since)) - System.currentTimeMillis();
                double restored = restarted.metric("lanemq_delay_checkpoint_restored_total");
                double skipped = restarted.metric("lanemq_delay_duplicates_skipped_total");
                double stored = restarted.metric("lanemq_delay_scheduled_total");
                await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                        .until(() -> p.arrivals.distinct() >= all);
                p.awaitEveryStoredCopy();
                System.out.printf("[DelayServerCheckpointIT] kill -9 after a periodic checkpoint of %d, with %d read since:"
                                + " every offset held again %d ms before the first was due,"
                                + " %.0f restored from the checkpoint, copies read again: %.0f skipped as duplicates, %.0f"
                                + " appended to buckets on disk (dropped when loaded); all %d"
                                + " delivered, %d duplicates, arrival minus due %s%n", before.size(), since.size(), marginMillis, restored,
                        skipped, stored, p.arrivals.distinct(), p.arrivals.duplicates(), p.arrivals.lateness());
                // Some of the later records may have made it into a later checkpoint of their cluster; a send stored
                // on both clusters is held (and restored) once per cluster.
                assertThat(restored).isBetween((double) before.size(), (double) (p.internalCopies() - copiesBefore));
                assertThat(p.arrivals.countByKey.keySet()).containsAll(before.stream().map(DelayedSender.Sent::key).toList())
                        .containsAll(since.stream().map(DelayedSender.Sent::key).toList());
                assertThat(p.arrivals.early()).isEmpty();
            }
        }
    }

    /** Whether the server holds every copy stored since {@code copiesBefore}, and at least one per send. */
    private static boolean heldEveryCopy(ServerProcess server, DelayPlatform p, long copiesBefore, int sends)
            throws Exception {
        double held = server.metric("lanemq_delay_held_offsets");
        return held >= sends && held == p.internalCopies() - copiesBefore;
    }

    static long firstDue(List<DelayedSender.Sent> sent) {
        return sent.stream().mapToLong(DelayedSender.Sent::dueAt).min().orElseThrow();
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
