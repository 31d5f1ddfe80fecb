package io.lanemq.config;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.config.etcd.EtcdClient;
import io.lanemq.config.etcd.EtcdEntry;
import io.lanemq.config.etcd.EtcdException;
import io.lanemq.config.etcd.KeyWatch;
import io.lanemq.config.etcd.KeyWatchListener;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The platform configuration held as one YAML or JSON document in one etcd key, read with {@link #load()} and
 * then watched (etcd's WATCH, pushed, not polled) from the revision that load saw.
 *
 * <p>While etcd is unreachable nothing is delivered, so the caller keeps its last good configuration; the watch
 * reconnects with backoff and resumes after the last revision it saw (see {@link EtcdClient#watch}). A deleted
 * key is rejected like an invalid document. Operators write the key with the {@code lanemq-config} tool, which
 * validates first.
 *
 * <p>With a {@link ConfigSnapshotStore}, every configuration the caller {@linkplain #applied applied} is kept as a
 * local snapshot, and a {@link #load()} that cannot reach etcd returns the snapshot's configuration instead (its
 * {@link PlatformConfig#document()} says it is stale, since when, at which revision); the watch then reads the key as
 * soon as etcd answers and delivers it even when it is unchanged, so the caller's normal reload makes it current.
 * Without etcd and without a snapshot, {@code load()} fails as it always did. Thread-safe.
 *
 * <pre>{@code
 * try (ConfigSource source = ConfigSources.open(
 *         "etcd://10.0.0.1:2379,10.0.0.2:2379/lanemq/platform/prod?cacert=/etc/lanemq/etcd-ca.pem&user=sdk&passwordFile=/run/secrets/etcd")) {
 *     PlatformConfigRef ref = new PlatformConfigRef(source.load());
 *     source.watch(listener);   // from the thread lanemq-config-watch-etcd/lanemq/platform/prod
 * }
 * }</pre>
 */
public final class EtcdConfigSource implements ConfigSource {
    private static final Logger LOG = LoggerFactory.getLogger(EtcdConfigSource.class);
    /**
     * How long a start waits for etcd when a snapshot is there to start on: a hung etcd would otherwise hold it for the
     * request timeout per endpoint. A slow etcd's document still arrives, through the watch, moments later.
     */
    public static final Duration SNAPSHOT_START_WAIT = Duration.ofSeconds(2);

    private final EtcdClient etcd;
    private final String key;
    private final PlatformConfigParser parser;
    private final WatchSlot<KeyWatch> slot = new WatchSlot<>();
    private final Object lock = new Object();
    private final Optional<ConfigSnapshotStore> snapshots;
    private final Optional<ClientIdentity> identity;
    private final String canaryKey;
    /** What the last load delivered (as {@link SnapshotDelivery#seen}), or null after a start on the snapshot. */
    private String loadedText;
    private long loadedRevision;
    /** The configuration and the canary the last load read, to seed the watch's {@link CanaryView}. */
    private ConfigDocument loadedConfiguration;
    private Optional<Canary> loadedCanary = Optional.empty();
    private long loadedCanaryRevision;
    private long loadedCanaryStoreRevision;
    /** The last load found etcd unreachable and returned the snapshot. */
    private boolean loadedFromSnapshot;

    /** Takes ownership of {@code client}: {@link #close()} closes it. Keeps no snapshot. */
    public EtcdConfigSource(EtcdClient client, String key, PlatformConfigParser parser) {
        this(client, key, parser, Optional.empty());
    }

    /**
     * Takes ownership of {@code client}: {@link #close()} closes it.
     *
     * @param snapshots where the configurations applied are kept, to start from while etcd is unreachable; empty: none
     */
    public EtcdConfigSource(EtcdClient client, String key, PlatformConfigParser parser, Optional<ConfigSnapshotStore> snapshots) {
        this(client, key, parser, snapshots, Optional.empty());
    }

    /**
     * Takes ownership of {@code client}: {@link #close()} closes it.
     *
     * @param snapshots where the configurations applied are kept, to start from while etcd is unreachable; empty: none
     * @param identity  who reads, as a canary under {@code <key>.canary} chooses its clients ({@link Canary}); empty: a
     *                  reader that is never chosen (a tool, a service without an application name)
     */
    public EtcdConfigSource(EtcdClient client, String key, PlatformConfigParser parser, Optional<ConfigSnapshotStore> snapshots,
                            Optional<ClientIdentity> identity) {
        this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
        this.identity = Objects.requireNonNull(identity, "identity");
        this.canaryKey = key + Canary.SUFFIX;
        this.etcd = Objects.requireNonNull(client, "client");
        this.key = Objects.requireNonNull(key, "key");
        this.parser = Objects.requireNonNull(parser, "parser");
        if (key.isBlank()) {
            throw new IllegalArgumentException("etcd key is empty");
        }
    }

    /**
     * Reads and validates the key; when etcd cannot be reached, the snapshot of this source and key if there is one.
     *
     * @throws InvalidConfigurationException the key does not exist, etcd cannot be reached (naming the key and
     *                                       the endpoints) and there is no snapshot or it is refused (naming the file
     *                                       and why), or the document is invalid (naming key and line)
     */
    @Override
    public PlatformConfig load() throws InvalidConfigurationException {
        EtcdEntry entry;
        Optional<EtcdEntry> canaryEntry;
        long canaryStoreRevision;
        try {
            Optional<EtcdEntry> read = hasSnapshot() ? etcd.get(key, SNAPSHOT_START_WAIT) : etcd.get(key);
            entry = read.orElseThrow(() -> new InvalidConfigurationException("no platform configuration in "
                    + describe() + ": etcd key '" + key + "' does not exist on [" + etcd.describe()
                    + "]; publish one with: lanemq-config publish <file> --etcd " + etcd.describe() + " --key " + key));
            // Read after the configuration: a promotion between the two reads shows as its candidate, no longer based on
            // the configuration read, so the client runs the configuration and the watch brings the promoted one.
            canaryEntry = identity.isEmpty() ? Optional.empty()
                    : hasSnapshot() ? etcd.get(canaryKey, SNAPSHOT_START_WAIT) : etcd.get(canaryKey);
            canaryStoreRevision = canaryEntry.map(EtcdEntry::storeRevision).orElse(entry.storeRevision());
        } catch (EtcdException e) {
            return loadSnapshot(e);
        }
        ConfigDocument configuration = ConfigDocument.fresh(describe(), key, entry.modRevision(), entry.value());
        Optional<Canary> canary = canaryEntry.flatMap(c -> CanaryView.read(c.value(), canaryOrigin(c.modRevision())));
        long canaryRevision = canaryEntry.map(EtcdEntry::modRevision).orElse(0L);
        ConfigDocument runs = CanaryView.resolve(identity, configuration, canary, canaryRevision);
        PlatformConfig config;
        if (runs.canary()) {
            try {
                config = parser.parse(runs.text(), canaryOrigin(canaryRevision)).withDocument(runs);
            } catch (InvalidConfigurationException invalid) {
                // Published candidates are validated; one that is not valid here (another environment) is not run.
                LOG.warn("{}; starting on the configuration instead", invalid.getMessage());
                runs = configuration;
                config = parser.parse(runs.text(), origin(entry.modRevision())).withDocument(runs);
            }
        } else {
            config = parser.parse(runs.text(), origin(entry.modRevision())).withDocument(runs);
        }
        synchronized (lock) {
            loadedText = SnapshotDelivery.seen(runs);
            loadedRevision = entry.storeRevision();
            loadedConfiguration = configuration;
            loadedCanary = canary;
            loadedCanaryRevision = canaryRevision;
            loadedCanaryStoreRevision = canaryStoreRevision;
            loadedFromSnapshot = false;
        }
        return config;
    }

    private boolean hasSnapshot() {
        return snapshots.isPresent() && Files.isRegularFile(snapshots.get().fileFor(describe(), key));
    }

    private PlatformConfig loadSnapshot(EtcdException unreachable) throws InvalidConfigurationException {
        String cannot = "cannot read platform configuration " + describe() + ": " + unreachable.getMessage();
        if (snapshots.isEmpty()) {
            throw new InvalidConfigurationException(cannot, unreachable);
        }
        Path file = snapshots.get().fileFor(describe(), key);
        ConfigDocument document;
        try {
            document = snapshots.get().read(describe(), key).orElseThrow(() -> new InvalidConfigurationException(
                    cannot + "; and there is no snapshot of it to start from (" + file + ")", unreachable));
        } catch (SnapshotRefusedException refused) {
            throw new InvalidConfigurationException(cannot + "; and " + refused.getMessage(), refused);
        }
        PlatformConfig config;
        try {
            config = parser.parse(document.text(), "snapshot " + file + " of " + origin(document.revision()));
        } catch (InvalidConfigurationException invalid) {
            throw new InvalidConfigurationException(cannot + "; and its snapshot is no valid configuration here: "
                    + invalid.getMessage(), invalid);
        }
        synchronized (lock) {
            loadedText = null;
            loadedFromSnapshot = true;
        }
        LOG.warn("{}; starting on the snapshot {} of revision {}, written {}; the current document is applied as soon as etcd answers",
                cannot, file, document.revision(), document.snapshotAt().orElseThrow());
        return config.withDocument(document);
    }

    /**
     * Starts watching from just after the revision the last {@link #load()} saw, so a put between the two is
     * still delivered (without a load, from now on).
     *
     * @throws IllegalStateException when already watched or closed
     */
    @Override
    public void watch(ConfigListener listener) {
        Objects.requireNonNull(listener, "listener");
        slot.start(describe(), () -> {
            String baseline;
            long from;
            long canaryFrom;
            boolean fromSnapshot;
            CanaryView view;
            synchronized (lock) {
                baseline = loadedText;
                from = loadedText == null ? 0 : loadedRevision + 1;
                canaryFrom = loadedText == null ? 0 : loadedCanaryStoreRevision + 1;
                fromSnapshot = loadedFromSnapshot;
                // After a start on the snapshot there is no baseline: etcd's document is delivered even when it is the
                // snapshot's, so the caller learns that what it runs is current again.
                view = new CanaryView(identity, new SnapshotDelivery(parser, listener, baseline), this::canaryOrigin);
                if (loadedConfiguration != null && !fromSnapshot) {
                    view.seed(loadedConfiguration, origin(loadedConfiguration.revision()), loadedCanary, loadedCanaryRevision);
                }
            }
            KeyWatchListener configuration = new KeyWatchListener() {
                @Override
                public void onPut(EtcdEntry entry) {
                    view.configuration(ConfigDocument.fresh(describe(), key, entry.modRevision(), entry.value()),
                            origin(entry.modRevision()));
                }

                @Override
                public void onDelete(String deletedKey, long revision) {
                    view.configurationAbsent(new InvalidConfigurationException("etcd key '" + key + "' was deleted at revision "
                            + revision + " (" + describe() + "); the last good configuration stays in force"), describe());
                }
            };
            KeyWatchListener canary = new KeyWatchListener() {
                @Override
                public void onPut(EtcdEntry entry) {
                    view.canary(entry.value(), entry.modRevision());
                }

                @Override
                public void onDelete(String deletedKey, long revision) {
                    // A promotion wrote the configuration in the same transaction: read it, in case its own watch
                    // reports it after this deletion. Rare (once per canary), so one read on this thread is cheap.
                    Optional<ConfigDocument> now = Optional.empty();
                    try {
                        now = etcd.get(key).filter(entry -> entry.modRevision() >= revision)
                                .map(entry -> ConfigDocument.fresh(describe(), key, entry.modRevision(), entry.value()));
                    } catch (EtcdException e) {
                        LOG.debug("reading {} after its canary was deleted: {}; its own watch brings it", describe(), e.toString());
                    }
                    view.canaryAbsent(now, now.map(d -> origin(d.revision())).orElse(null));
                }
            };
            KeyWatch configurationWatch = fromSnapshot ? etcd.watchCurrent(key, configuration) : etcd.watch(key, from, configuration);
            if (identity.isEmpty()) {
                return configurationWatch; // never chosen by a canary, so there is nothing to watch there
            }
            // Two watches, not one over a key range: the range from the key to its canary would also carry every key
            // that sorts between them (another environment's key), each a whole document, to every client.
            KeyWatch canaryWatch = fromSnapshot ? etcd.watchCurrent(canaryKey, canary) : etcd.watch(canaryKey, canaryFrom, canary);
            return new BothWatches(configurationWatch, canaryWatch);
        });
    }

    /** The configuration's and the canary's watch, run and stopped together. */
    private record BothWatches(KeyWatch configuration, KeyWatch canary) implements KeyWatch {
        @Override
        public boolean isConnected() {
            return configuration.isConnected() && canary.isConnected();
        }

        @Override
        public long nextRevision() {
            return configuration.nextRevision();
        }

        @Override
        public void close() {
            configuration.close();
            canary.close();
        }
    }

    /** Keeps {@code config}'s document as this source's snapshot, when it has a snapshot store and the document is etcd's. */
    @Override
    public void applied(PlatformConfig config) {
        if (snapshots.isEmpty()) {
            return;
        }
        Optional<ConfigDocument> document = config.document();
        if (document.isEmpty() || document.get().stale() || !document.get().source().equals(describe())) {
            return;
        }
        try {
            snapshots.get().save(document.get());
        } catch (IOException | RuntimeException e) {
            // Changes are rare, so one line each is bounded; the client runs on regardless, it just cannot start offline.
            LOG.warn("cannot write the configuration snapshot of {} (revision {}) to {}: {}", describe(),
                    document.get().revision(), snapshots.get().directory(), e.toString());
        }
    }

    /** The snapshot file of this source, when it keeps one. */
    public Optional<Path> snapshotFile() {
        return snapshots.map(store -> store.fileFor(describe(), key));
    }

    /** Whether the watch has a live stream to etcd right now (false before {@link #watch}, and while etcd is away). */
    @Override
    public boolean isConnected() {
        KeyWatch watch = slot.running();
        return watch != null && watch.isConnected();
    }

    @Override
    public String describe() {
        return "etcd://" + etcd.describe() + (key.startsWith("/") ? "" : "/") + key;
    }

    private String origin(long revision) {
        return describe() + " (revision " + revision + ")";
    }

    private String canaryOrigin(long revision) {
        return describe() + Canary.SUFFIX + " (revision " + revision + ")";
    }

    /** Stops the watch thread and closes the etcd connections. */
    @Override
    public void close() {
        KeyWatch running = slot.close();
        if (running != null) {
            running.close();
        }
        etcd.close();
    }
}
