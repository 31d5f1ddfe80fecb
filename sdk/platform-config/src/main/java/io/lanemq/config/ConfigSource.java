package io.lanemq.config;

import io.lanemq.api.InvalidConfigurationException;

/**
 * Where the platform configuration comes from: a local file (the embedded default) or a config
 * centre. Implementations are thread-safe.
 */
public interface ConfigSource extends AutoCloseable {
    /** Reads and validates the current configuration. */
    PlatformConfig load() throws InvalidConfigurationException;

    /**
     * Starts pushing changes to {@code listener} until {@link #close()}: every new valid snapshot
     * to {@link ConfigListener#onChange}, every rejected document to {@link ConfigListener#onRejected}
     * (the previous snapshot stays in force).
     * Calls come one at a time (a source that watches a canary beside the configuration has a thread for each), in
     * order. A source that cannot change (configuration built in code) never calls back.
     */
    default void watch(ConfigListener listener) {
    }

    /**
     * Whether a change published now would reach this client: true for a file (the client reads it where it is) and for
     * a configuration that cannot change; a config centre's source is false before {@link #watch} and while its stream
     * to the centre is down (it reconnects by itself, and the last good configuration stays in force meanwhile).
     */
    default boolean isConnected() {
        return true;
    }

    /**
     * Tells the source that the caller now runs on {@code config}: the one {@link #load()} returned, once the caller
     * started on it, and each change it applied. A source with a snapshot directory (etcd) keeps its document as the
     * snapshot to start from while it is unreachable; it never throws (a snapshot that cannot be written is logged).
     */
    default void applied(PlatformConfig config) {
    }

    /** Names the source in messages, e.g. {@code file:/etc/lanemq/platform.yaml}. */
    String describe();

    @Override
    default void close() {
    }
}
