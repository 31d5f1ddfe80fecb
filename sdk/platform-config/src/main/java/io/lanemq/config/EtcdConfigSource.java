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

    private final EtcdClient client;
    private final String key;
    private final PlatformConfigParser parser;
    private final WatchSlot<KeyWatch> slot = new WatchSlot<>();
    private final Object lock = new Object();
    private final Optional<ConfigSnapshotStore> snapshots;
    private String loadedText;
    private long loadedRevision;
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
        this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
        this.client = Objects.requireNonNull(client, "client");
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
        try {
            Optional<EtcdEntry> read = hasSnapshot() ? client.get(key, SNAPSHOT_START_WAIT) : client.get(key);
            entry = read.orElseThrow(() -> new InvalidConfigurationException("no platform configuration in "
                    + describe() + ": etcd key '" + key + "' does not exist on [" + client.describe()
                    + "]; publish one with: lanemq-config publish <file> --etcd " + client.describe() + " --key " + key));
        } catch (EtcdException e) {
            return loadSnapshot(e);
        }
        PlatformConfig config = parser.parse(entry.value(), origin(entry.modRevision()))
                .withDocument(ConfigDocument.fresh(describe(), key, entry.modRevision(), entry.value()));
        synchronized (lock) {
            loadedText = entry.value();
            loadedRevision = entry.storeRevision();
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
            boolean fromSnapshot;
            synchronized (lock) {
                baseline = loadedText;
                from = loadedText == null ? 0 : loadedRevision + 1;
                fromSnapshot = loadedFromSnapshot;
            }
            // After a start on the snapshot there is no baseline: etcd's document is delivered even when it is the
            // snapshot's, so the caller learns that what it runs is current again.
            SnapshotDelivery delivery = new SnapshotDelivery(parser, listener, baseline);
            KeyWatchListener deliver = new KeyWatchListener() {
                @Override
                public void onPut(EtcdEntry entry) {
                    delivery.offer(ConfigDocument.fresh(describe(), key, entry.modRevision(), entry.value()),
                            origin(entry.modRevision()));
                }

                @Override
                public void onDelete(String deletedKey, long revision) {
                    delivery.offerAbsent(new InvalidConfigurationException("etcd key '" + key + "' was deleted at revision "
                            + revision + " (" + describe() + "); the last good configuration stays in force"), describe());
                }
            };
            return fromSnapshot ? client.watchCurrent(key, deliver) : client.watch(key, from, deliver);
        });
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
        return "etcd://" + client.describe() + (key.startsWith("/") ? "" : "/") + key;
    }

    private String origin(long revision) {
        return describe() + " (revision " + revision + ")";
    }

    /** Stops the watch thread and closes the etcd connections. */
    @Override
    public void close() {
        KeyWatch running = slot.close();
        if (running != null) {
            running.close();
        }
        client.close();
    }
}
