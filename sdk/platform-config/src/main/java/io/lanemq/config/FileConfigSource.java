package io.lanemq.config;

import io.lanemq.api.InvalidConfigurationException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * A configuration file on local disk, YAML or JSON, watched for changes once {@link #watch} is called.
 *
 * <p>Changes arrive within a few hundred milliseconds of the write, including Kubernetes ConfigMap updates
 * (an atomic swap of the mounted directory's {@code ..data} symlink) and edits through a symlink; only a changed
 * document is delivered, an invalid one as {@link ConfigListener#onRejected}. Thread-safe.
 *
 * <pre>{@code
 * try (FileConfigSource source = new FileConfigSource(Path.of("/etc/lanemq/platform.yaml"), new PlatformConfigParser())) {
 *     PlatformConfigRef ref = new PlatformConfigRef(source.load());
 *     source.watch(listener);   // from the thread lanemq-config-watch-platform.yaml, until close()
 * }
 * }</pre>
 */
public final class FileConfigSource implements ConfigSource {
    /** How often the safety net compares the file's path, size and modification time; see {@link FileWatcher}. */
    public static final Duration DEFAULT_RECHECK = Duration.ofSeconds(1);

    private final Path path;
    private final PlatformConfigParser parser;
    private final Duration recheck;
    private final Object lock = new Object();
    private final WatchSlot<FileWatcher> slot = new WatchSlot<>();
    private String loadedText;

    public FileConfigSource(Path path, PlatformConfigParser parser) {
        this(path, parser, DEFAULT_RECHECK);
    }

    /**
     * @param recheck how often to compare the file's resolved path, size and modification time, in case the
     *                file system's change events miss a change; positive
     */
    public FileConfigSource(Path path, PlatformConfigParser parser, Duration recheck) {
        this.path = Objects.requireNonNull(path, "path").toAbsolutePath().normalize();
        this.parser = Objects.requireNonNull(parser, "parser");
        if (recheck == null || recheck.isNegative() || recheck.isZero()) {
            throw new IllegalArgumentException("recheck must be positive, was " + recheck);
        }
        this.recheck = recheck;
    }

    @Override
    public PlatformConfig load() throws InvalidConfigurationException {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new InvalidConfigurationException("cannot read platform configuration " + describe() + ": " + e, e);
        }
        PlatformConfig config = parser.parse(text, describe());
        synchronized (lock) {
            loadedText = text;
        }
        return config;
    }

    /**
     * Starts the watch thread. Changes are compared with the document the last {@link #load()} returned, so a
     * change made between {@code load()} and this call is still delivered (without a load, the first read is).
     *
     * @throws IllegalStateException when already watched or closed
     */
    @Override
    public void watch(ConfigListener listener) {
        Objects.requireNonNull(listener, "listener");
        slot.start(describe(), () -> {
            FileWatcher watcher;
            try {
                watcher = new FileWatcher(path, describe(), new SnapshotDelivery(parser, listener, loadedText()), recheck);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot watch " + describe() + ": " + e.getMessage(), e);
            }
            watcher.start();
            return watcher;
        });
    }

    /** Whether the watch thread runs: after {@link #watch} and until {@link #close()}. */
    public boolean isWatching() {
        FileWatcher watcher = slot.running();
        return watcher != null && watcher.isRunning();
    }

    private String loadedText() {
        synchronized (lock) {
            return loadedText;
        }
    }

    @Override
    public String describe() {
        return "file:" + path;
    }

    /** Stops the watch thread and waits (up to 5 s) for a listener call in progress. */
    @Override
    public void close() {
        FileWatcher running = slot.close();
        if (running != null) {
            running.close();
        }
    }
}
