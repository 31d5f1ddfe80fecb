package io.lanemq.config;

import io.lanemq.api.InvalidConfigurationException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A configuration file on local disk, YAML or JSON, watched for changes once {@link #watch} is called.
 *
 * <p>Changes arrive within a few hundred milliseconds of the write, including Kubernetes ConfigMap updates
 * (an atomic swap of the mounted directory's {@code ..data} symlink) and edits through a symlink; only a changed
 * document is delivered, an invalid one as {@link ConfigListener#onRejected}.
 *
 * <p>Given a {@link ClientIdentity}, it also reads and watches {@code <file>.canary} (a second key of the same
 * ConfigMap) and runs its candidate when the {@link Canary} chooses this client. Thread-safe.
 *
 * <pre>{@code
 * try (FileConfigSource source = new FileConfigSource(Path.of("/etc/lanemq/platform.yaml"), new PlatformConfigParser())) {
 *     PlatformConfigRef ref = new PlatformConfigRef(source.load());
 *     source.watch(listener);   // from the thread lanemq-config-watch-platform.yaml, until close()
 * }
 * }</pre>
 */
public final class FileConfigSource implements ConfigSource {
    private static final Logger LOG = LoggerFactory.getLogger(FileConfigSource.class);
    /** How often the safety net compares the file's path, size and modification time; see {@link FileWatcher}. */
    public static final Duration DEFAULT_RECHECK = Duration.ofSeconds(1);

    private final Path path;
    private final PlatformConfigParser parser;
    private final Duration recheck;
    private final Object lock = new Object();
    private final WatchSlot<List<FileWatcher>> slot = new WatchSlot<>();
    private final Optional<ClientIdentity> identity;
    private final Path canaryPath;
    /** What the last load returned (as {@link SnapshotDelivery#seen}), the configuration and the canary it read. */
    private String loadedText;
    private ConfigDocument loadedConfiguration;
    private Optional<Canary> loadedCanary = Optional.empty();

    public FileConfigSource(Path path, PlatformConfigParser parser) {
        this(path, parser, DEFAULT_RECHECK);
    }

    /**
     * @param recheck how often to compare the file's resolved path, size and modification time, in case the
     *                file system's change events miss a change; positive
     */
    public FileConfigSource(Path path, PlatformConfigParser parser, Duration recheck) {
        this(path, parser, recheck, Optional.empty());
    }

    /**
     * @param recheck  as above
     * @param identity who reads, as a canary in {@code <file>.canary} chooses its clients ({@link Canary}); empty: a
     *                 reader that is never chosen, and the canary file is not read
     */
    public FileConfigSource(Path path, PlatformConfigParser parser, Duration recheck, Optional<ClientIdentity> identity) {
        this.identity = Objects.requireNonNull(identity, "identity");
        this.path = Objects.requireNonNull(path, "path").toAbsolutePath().normalize();
        this.canaryPath = this.path.resolveSibling(this.path.getFileName() + Canary.SUFFIX);
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
        ConfigDocument configuration = document(text);
        Optional<Canary> canary = readCanary();
        ConfigDocument runs = CanaryView.resolve(identity, configuration, canary, 0);
        PlatformConfig config;
        if (runs.canary()) {
            try {
                config = parser.parse(runs.text(), canaryOrigin()).withDocument(runs);
            } catch (InvalidConfigurationException invalid) {
                LOG.warn("{}; starting on the configuration instead", invalid.getMessage());
                runs = configuration;
                config = parser.parse(text, describe()).withDocument(runs);
            }
        } else {
            config = parser.parse(text, describe()).withDocument(runs);
        }
        synchronized (lock) {
            loadedText = SnapshotDelivery.seen(runs);
            loadedConfiguration = configuration;
            loadedCanary = canary;
        }
        return config;
    }

    private ConfigDocument document(String text) {
        return ConfigDocument.fresh(describe(), describe(), 0, text);
    }

    /** The canary file's canary; empty when there is none, or no identity to be chosen by one. */
    private Optional<Canary> readCanary() {
        if (identity.isEmpty() || !Files.exists(canaryPath)) {
            return Optional.empty();
        }
        try {
            return CanaryView.read(Files.readString(canaryPath, StandardCharsets.UTF_8), canaryOrigin());
        } catch (IOException e) {
            LOG.warn("cannot read the canary {}: {}; running the configuration", canaryOrigin(), e.toString());
            return Optional.empty();
        }
    }

    private String canaryOrigin() {
        return "file:" + canaryPath;
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
            CanaryView view;
            synchronized (lock) {
                view = new CanaryView(identity, new SnapshotDelivery(parser, listener, loadedText), revision -> canaryOrigin());
                if (loadedConfiguration != null) {
                    view.seed(loadedConfiguration, describe(), loadedCanary, 0);
                }
            }
            List<FileWatcher> watchers = new ArrayList<>();
            watchers.add(watcher(path, describe(), new FileWatcher.Sink() {
                @Override
                public void offer(String text, String origin) {
                    view.configuration(document(text), origin);
                }

                @Override
                public void offerAbsent(InvalidConfigurationException why, String origin) {
                    view.configurationAbsent(why, origin);
                }
            }));
            if (identity.isPresent()) {
                watchers.add(watcher(canaryPath, canaryOrigin(), new FileWatcher.Sink() {
                    @Override
                    public void offer(String text, String origin) {
                        view.canary(text, 0);
                    }

                    @Override
                    public void offerAbsent(InvalidConfigurationException why, String origin) {
                        view.canaryAbsent(); // no canary file: the usual state
                    }
                }));
            }
            watchers.forEach(FileWatcher::start);
            return watchers;
        });
    }

    private FileWatcher watcher(Path watched, String origin, FileWatcher.Sink sink) {
        try {
            return new FileWatcher(watched, origin, sink, recheck);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot watch " + origin + ": " + e.getMessage(), e);
        }
    }

    /** Whether the watch thread runs: after {@link #watch} and until {@link #close()}. */
    public boolean isWatching() {
        List<FileWatcher> watchers = slot.running();
        return watchers != null && watchers.stream().allMatch(FileWatcher::isRunning);
    }

    @Override
    public String describe() {
        return "file:" + path;
    }

    /** Stops the watch thread and waits (up to 5 s) for a listener call in progress. */
    @Override
    public void close() {
        List<FileWatcher> running = slot.close();
        if (running != null) {
            running.forEach(FileWatcher::close);
        }
    }
}
