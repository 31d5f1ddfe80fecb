package io.lanemq.config;

import static io.lanemq.config.ConfigDocuments.UNKNOWN_CLUSTER;
import static io.lanemq.config.ConfigDocuments.UNKNOWN_CLUSTER_PROBLEM;
import static io.lanemq.config.ConfigDocuments.weightOfA;
import static io.lanemq.config.ConfigDocuments.weights;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real files, real WatchService: each wait is a poll with a deadline on the listener's calls. */
class FileConfigSourceWatchTest {
    private static final Duration PICKUP = Duration.ofSeconds(1);
    /** Longer than the watcher's settle and max-delay windows: enough for a wrongly delivered call to show. */
    private static final Duration QUIET = Duration.ofMillis(800);

    @TempDir
    Path dir;

    private final RecordingListener listener = new RecordingListener();
    private FileConfigSource source;

    @AfterEach
    void close() {
        if (source != null) {
            source.close();
        }
    }

    private FileConfigSource watched(Path file) throws Exception {
        source = new FileConfigSource(file, new PlatformConfigParser());
        assertThat(weightOfA(source.load())).isEqualTo(50);
        source.watch(listener);
        await().atMost(PICKUP).until(source::isWatching);
        return source;
    }

    @Test
    void anEditIsDeliveredWithinOneSecondFromTheWatchThread() throws Exception {
        Path file = dir.resolve("platform.yaml");
        Files.writeString(file, weights(50, 50));
        watched(file);

        List<Long> latencies = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            int weight = 50 + i;
            long written = System.nanoTime();
            Files.writeString(file, weights(weight, 100 - weight));
            await().atMost(PICKUP).until(() -> listener.changes().size() == latencies.size() + 1);
            latencies.add(listener.last().nanos() - written);
            assertThat(weightOfA(listener.last().change())).isEqualTo(weight);
        }
        assertThat(listener.rejections()).isEmpty();
        assertThat(listener.calls()).allSatisfy(c -> assertThat(c.thread()).isEqualTo("lanemq-config-watch-platform.yaml"));
        System.out.println("file edit -> onChange: " + ConfigDocuments.summary(latencies));
    }

    /** The kubelet's update: a new timestamped directory, a ..data_tmp symlink renamed over ..data. */
    @Test
    void aConfigMapSymlinkSwapIsDelivered() throws Exception {
        AtomicInteger generation = new AtomicInteger();
        Path first = configMapGeneration(generation.incrementAndGet(), weights(50, 50));
        Files.createSymbolicLink(dir.resolve("..data"), first.getFileName());
        Files.createSymbolicLink(dir.resolve("platform.yaml"), Path.of("..data", "platform.yaml"));
        watched(dir.resolve("platform.yaml"));

        List<Long> latencies = new ArrayList<>();
        for (int weight : new int[] {100, 0, 70}) {
            Path next = configMapGeneration(generation.incrementAndGet(), weights(weight, 100 - weight));
            Path tmp = Files.createSymbolicLink(dir.resolve("..data_tmp"), next.getFileName());
            long swapped = System.nanoTime();
            Files.move(tmp, dir.resolve("..data"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            deleteTree(dir.resolve("..2026_11_22_0" + (generation.get() - 1)));

            await().atMost(PICKUP).until(() -> listener.changes().size() == latencies.size() + 1);
            latencies.add(listener.last().nanos() - swapped);
            assertThat(weightOfA(listener.last().change())).isEqualTo(weight);
        }
        assertThat(listener.rejections()).isEmpty();
        System.out.println("ConfigMap ..data swap -> onChange: " + ConfigDocuments.summary(latencies));
    }

    /** No event reaches the link's directory when the target is edited in place elsewhere (measured: none in 2 s). */
    @Test
    void anInPlaceEditBehindASymlinkToAnotherDirectoryIsDelivered() throws Exception {
        Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
        Path target = elsewhere.resolve("platform.yaml");
        Files.writeString(target, weights(50, 50));
        Path linkDir = Files.createDirectory(dir.resolve("etc"));
        Files.createSymbolicLink(linkDir.resolve("platform.yaml"), target);
        watched(linkDir.resolve("platform.yaml"));

        Files.writeString(target, weights(20, 80));

        await().atMost(PICKUP).until(() -> listener.changes().size() == 1);
        assertThat(weightOfA(listener.last().change())).isEqualTo(20);
    }

    @Test
    void anInvalidEditIsRejectedWithKeyAndLineAndAFixIsDeliveredAfterIt() throws Exception {
        Path file = dir.resolve("platform.yaml");
        Files.writeString(file, weights(50, 50));
        watched(file);

        Files.writeString(file, UNKNOWN_CLUSTER);
        await().atMost(PICKUP).until(() -> listener.count() == 1);
        assertThat(listener.changes()).isEmpty();
        assertThat(listener.last().rejection()).hasMessageContaining(UNKNOWN_CLUSTER_PROBLEM).hasMessageContaining(file.toString());

        Files.writeString(file, "clusters:\n  cluster-a: { idc: idc-a, nameServer: \"127.0.0.1:9876\"\ntopics: {}\n");
        await().atMost(PICKUP).until(() -> listener.count() == 2);
        assertThat(listener.last().rejection()).hasMessageContaining("(line ").hasMessageContaining("malformed document");

        // Back to the very document that was in force: delivered, so the listener knows the bad state is over.
        Files.writeString(file, weights(50, 50));
        await().atMost(PICKUP).until(() -> listener.count() == 3);
        assertThat(weightOfA(listener.last().change())).isEqualTo(50);
    }

    @Test
    void rewritingTheSameDocumentOrTouchingTheDirectoryDeliversNothing() throws Exception {
        Path file = dir.resolve("platform.yaml");
        Files.writeString(file, weights(50, 50));
        watched(file);

        Files.writeString(file, weights(50, 50));
        Files.writeString(dir.resolve("unrelated.txt"), "noise");
        await().during(QUIET).atMost(QUIET.plusSeconds(1)).until(() -> listener.count() == 0);
    }

    @Test
    void aDeletedFileIsRejectedOnceAndItsReturnIsDelivered() throws Exception {
        Path file = dir.resolve("platform.yaml");
        Files.writeString(file, weights(50, 50));
        watched(file);

        Files.delete(file);
        await().atMost(PICKUP).until(() -> listener.count() == 1);
        assertThat(listener.last().rejection()).hasMessageContaining("does not exist").hasMessageContaining("last good configuration");
        await().during(QUIET).atMost(QUIET.plusSeconds(1)).until(() -> listener.count() == 1);

        Files.writeString(file, weights(10, 90));
        await().atMost(PICKUP).until(() -> listener.count() == 2);
        assertThat(weightOfA(listener.last().change())).isEqualTo(10);
    }

    @Test
    void aChangeBetweenLoadAndWatchIsDelivered() throws Exception {
        Path file = dir.resolve("platform.yaml");
        Files.writeString(file, weights(50, 50));
        source = new FileConfigSource(file, new PlatformConfigParser());
        source.load();
        Files.writeString(file, weights(90, 10));

        source.watch(listener);

        await().atMost(PICKUP).until(() -> listener.count() == 1);
        assertThat(weightOfA(listener.last().change())).isEqualTo(90);
    }

    @Test
    void closeStopsTheWatchThread() throws Exception {
        Path file = dir.resolve("platform.yaml");
        Files.writeString(file, weights(50, 50));
        watched(file);
        assertThat(watchThreadAlive()).isTrue();

        source.close();

        assertThat(source.isWatching()).isFalse();
        assertThat(watchThreadAlive()).isFalse();
        Files.writeString(file, weights(1, 99));
        await().during(QUIET).atMost(QUIET.plusSeconds(1)).until(() -> listener.count() == 0);
    }

    private static boolean watchThreadAlive() {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("lanemq-config-watch-platform.yaml"));
    }

    private Path configMapGeneration(int generation, String document) throws IOException {
        Path generationDir = Files.createDirectory(dir.resolve("..2026_11_22_0" + generation));
        Files.writeString(generationDir.resolve("platform.yaml"), document);
        return generationDir;
    }

    private static void deleteTree(Path root) throws IOException {
        try (var paths = Files.walk(root)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
