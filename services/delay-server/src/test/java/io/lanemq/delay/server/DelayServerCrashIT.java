package io.lanemq.delay.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durability with the server in a child JVM: {@code kill -9} with records pending, and the loss of
 * an instance's whole store with a second instance taking over. Nothing acknowledged to a sender is
 * lost; duplicates are possible and reported.
 */
@Execution(ExecutionMode.CONCURRENT) // waits for due times on its own stack: see junit-platform.properties
class DelayServerCrashIT {

    @TempDir
    Path dir;

    @Test
    void killNineWithRecordsPendingThenRestartDeliversEveryRecord() throws Exception {
        Path store = dir.resolve("store");
        try (DelayPlatform p = new DelayPlatform()) {
            List<DelayedSender.Sent> sent;
            int arrivedBeforeKill;
            try (ServerProcess server = ServerProcess.start(p.config, store, dir.resolve("first.log"))) {
                p.warmUp();
                // Spread over 10 s: some arrive before the kill, most are still pending at it.
                sent = DelayedSender.send(p.producer, DelayPlatform.TOPIC, "k", 2_000, 2_000, 12_000);
                await().atMost(Duration.ofSeconds(60)).until(() -> p.arrivals.distinct() >= 300);
                server.kill9();
                arrivedBeforeKill = p.arrivals.distinct();
            }
            try (ServerProcess restarted = ServerProcess.start(p.config, store, dir.resolve("second.log"))) {
                await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                        .until(() -> p.arrivals.distinct() >= sent.size());
                p.awaitEveryStoredCopy();
                System.out.printf("[DelayServerCrashIT] kill -9 with %d of %d pending: all %d delivered after restart,"
                                + " %d duplicates delivered, %.0f copies skipped as duplicates by the restarted store,"
                                + " arrival minus due %s%n", sent.size() - arrivedBeforeKill, sent.size(),
                        p.arrivals.distinct(), p.arrivals.duplicates(),
                        restarted.metric("lanemq_delay_duplicates_skipped_total"), p.arrivals.lateness());
                assertThat(p.arrivals.countByKey.keySet()).containsAll(sent.stream().map(DelayedSender.Sent::key).toList());
                assertThat(p.arrivals.early()).isEmpty();
            }
        }
    }

    @Test
    void aSecondInstanceTakesHalfTheQueuesOverAndThenEverythingWhenTheFirstLosesItsStore() throws Exception {
        Path storeA = dir.resolve("store-a");
        Path storeB = dir.resolve("store-b");
        try (DelayPlatform p = new DelayPlatform();
             ServerProcess b = ServerProcess.start(p.config, storeB, dir.resolve("b.log"))) {
            p.warmUp();
            long copiesBefore = p.internalCopies();
            // Due after the rebalance (see the margin printed, to the first due time: a wider spread would only make the
            // test wait longer): B must still hold every record when A takes half over.
            List<DelayedSender.Sent> sent = DelayedSender.send(p.producer, DelayPlatform.TOPIC, "l", 1_000, 30_000, 32_000);
            await().atMost(Duration.ofSeconds(30)).until(() -> b.metric("lanemq_delay_pending") >= sent.size());
            try (ServerProcess a = ServerProcess.start(p.config, storeA, dir.resolve("a.log"))) {
                // The group splits the queues: B hands over the records of the queues it lost, A reads them again.
                // Each stored copy is pending once (a send given up on a slow cluster and stored there anyway is on both).
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                        .until(() -> a.metric("lanemq_delay_pending") > 0 && a.metric("lanemq_delay_pending")
                                + b.metric("lanemq_delay_pending") == p.internalCopies() - copiesBefore);
                System.out.printf("[DelayServerCrashIT] after the rebalance: instance A holds %.0f, B holds %.0f (%d copies"
                        + " of %d sends stored), %d ms before the first was due%n", a.metric("lanemq_delay_pending"),
                        b.metric("lanemq_delay_pending"), p.internalCopies() - copiesBefore, sent.size(),
                        DelayServerCheckpointIT.firstDue(sent) - System.currentTimeMillis());
                a.kill9();
            }
            deleteRecursively(storeA);

            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                    .until(() -> p.arrivals.distinct() >= sent.size());
            p.awaitEveryStoredCopy();
            System.out.printf("[DelayServerCrashIT] store of A lost: all %d delivered by B, %d duplicates, arrival"
                    + " minus due %s%n", p.arrivals.distinct(), p.arrivals.duplicates(), p.arrivals.lateness());
            assertThat(p.arrivals.countByKey.keySet()).containsAll(sent.stream().map(DelayedSender.Sent::key).toList());
            assertThat(p.arrivals.early()).isEmpty();
        }
    }

    private static void deleteRecursively(Path root) throws Exception {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }
}
