package io.lanemq.config;

import io.lanemq.api.InvalidConfigurationException;

/** Told by a {@link ConfigSource} what changed; see {@link ConfigSource#watch}. */
public interface ConfigListener {
    /** A new, fully validated snapshot. */
    void onChange(PlatformConfig next);

    /** A changed document that failed to read or validate; the message names the key and line. */
    void onRejected(InvalidConfigurationException reason);
}
