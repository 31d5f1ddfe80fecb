package io.lanemq.benchmarks.delay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A delay server's store directory for one benchmark run, deleted with everything in it on close. */
public final class ScratchStore implements AutoCloseable {
    private final Path path;

    private ScratchStore(Path path) {
        this.path = path;
    }

    public static ScratchStore create(String prefix) throws IOException {
        return new ScratchStore(Files.createTempDirectory(prefix));
    }

    public Path path() {
        return path;
    }

    @Override
    public void close() {
        try (Stream<Path> files = Files.walk(path)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("could not delete the scratch store " + path, e);
        }
    }
}
