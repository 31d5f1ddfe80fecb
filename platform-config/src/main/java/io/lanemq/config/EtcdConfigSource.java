package io.lanemq.config;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.config.etcd.EtcdClient;
import io.lanemq.config.etcd.EtcdEntry;
import io.lanemq.config.etcd.EtcdException;
import io.lanemq.config.etcd.KeyWatch;
import io.lanemq.config.etcd.KeyWatchListener;
import java.util.Objects;

/**
 * The platform configuration held as one YAML or JSON document in one etcd key, read with {@link #load()} and
 * then watched (etcd's WATCH, pushed, not polled) from the revision that load saw.
 *
 * <p>While etcd is unreachable nothing is delivered, so the caller keeps its last good configuration; the watch
 * reconnects with backoff and resumes after the last revision it saw (see {@link EtcdClient#watch}). A deleted
 * key is rejected like an invalid document. Operators write the key with the {@code lanemq-config} tool, which
 * validates first. Thread-safe.
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
    private final EtcdClient client;
    private final String key;
    private final PlatformConfigParser parser;
    private final WatchSlot<KeyWatch> slot = new WatchSlot<>();
    private final Object lock = new Object();
    private String loadedText;
    private long loadedRevision;

    /** Takes ownership of {@code client}: {@link #close()} closes it. */
    public EtcdConfigSource(EtcdClient client, String key, PlatformConfigParser parser) {
        this.client = Objects.requireNonNull(client, "client");
        this.key = Objects.requireNonNull(key, "key");
        this.parser = Objects.requireNonNull(parser, "parser");
        if (key.isBlank()) {
            throw new IllegalArgumentException("etcd key is empty");
        }
    }

    /**
     * Reads and validates the key.
     *
     * @throws InvalidConfigurationException the key does not exist, etcd cannot be reached (naming the key and
     *                                       the endpoints), or the document is invalid (naming key and line)
     */
    @Override
    public PlatformConfig load() throws InvalidConfigurationException {
        EtcdEntry entry;
        try {
            entry = client.get(key).orElseThrow(() -> new InvalidConfigurationException("no platform configuration in "
                    + describe() + ": etcd key '" + key + "' does not exist on [" + client.describe()
                    + "]; publish one with: lanemq-config publish <file> --etcd " + client.describe() + " --key " + key));
        } catch (EtcdException e) {
            throw new InvalidConfigurationException("cannot read platform configuration " + describe() + ": " + e.getMessage(), e);
        }
        PlatformConfig config = parser.parse(entry.value(), origin(entry.modRevision()));
        synchronized (lock) {
            loadedText = entry.value();
            loadedRevision = entry.storeRevision();
        }
        return config;
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
            synchronized (lock) {
                baseline = loadedText;
                from = loadedText == null ? 0 : loadedRevision + 1;
            }
            SnapshotDelivery delivery = new SnapshotDelivery(parser, listener, baseline);
            return client.watch(key, from, new KeyWatchListener() {
                @Override
                public void onPut(EtcdEntry entry) {
                    delivery.offer(entry.value(), origin(entry.modRevision()));
                }

                @Override
                public void onDelete(String deletedKey, long revision) {
                    delivery.offerAbsent(new InvalidConfigurationException("etcd key '" + key + "' was deleted at revision "
                            + revision + " (" + describe() + "); the last good configuration stays in force"), describe());
                }
            });
        });
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
