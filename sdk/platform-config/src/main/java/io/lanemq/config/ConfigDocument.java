package io.lanemq.config;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The document a {@link PlatformConfig} was parsed from, exactly as its source gave it (every environment included),
 * with where it came from: what a local snapshot keeps so that a client can start again on it.
 *
 * @param source     the source as it names itself ({@code etcd://host:2379/lanemq/platform/prod})
 * @param key        the key or path inside that source ({@code /lanemq/platform/prod})
 * @param revision   the source's revision of that document (etcd's mod revision); 0 when the source has none
 * @param text       the document, unchanged
 * @param snapshotAt present when the document was read from a local snapshot instead of its source: when that
 *                   snapshot was written, the last moment it is known to have been current
 */
public record ConfigDocument(String source, String key, long revision, String text, Optional<Instant> snapshotAt) {
    public ConfigDocument {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(snapshotAt, "snapshotAt");
    }

    /** A document just read from its source. */
    public static ConfigDocument fresh(String source, String key, long revision, String text) {
        return new ConfigDocument(source, key, revision, text, Optional.empty());
    }

    /** Whether it came from a local snapshot, not from its source. */
    public boolean stale() {
        return snapshotAt.isPresent();
    }

    @Override
    public String toString() {
        return "ConfigDocument[" + source + ", revision " + revision + ", " + text.length() + " chars"
                + snapshotAt.map(at -> ", snapshot of " + at).orElse("") + "]";
    }
}
