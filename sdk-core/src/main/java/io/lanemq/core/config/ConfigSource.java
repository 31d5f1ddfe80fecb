package io.lanemq.core.config;

import io.lanemq.api.InvalidConfigurationException;

/**
 * Where the platform configuration comes from: a local file (the embedded default) or a config
 * centre. Implementations are thread-safe.
 */
public interface ConfigSource extends AutoCloseable {
    /** Reads and validates the current configuration. */
    PlatformConfig load() throws InvalidConfigurationException;

    /** Names the source in messages, e.g. {@code file:/etc/lanemq/platform.yaml}. */
    String describe();

    @Override
    default void close() {
    }
}
