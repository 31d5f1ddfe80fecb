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
 * @param canary     whether it is a canary's candidate ({@link Canary}) rather than the configuration everyone runs;
 *                   {@code revision} is then the canary's own revision
 */
public record ConfigDocument(String source, String key, long revision, String text, Optional<Instant> snapshotAt,
                             boolean canary) {
    public ConfigDocument {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(snapshotAt, "snapshotAt");
    }

    /** A configuration (not a canary's candidate), read from its source or from a snapshot. */
    public ConfigDocument(String source, String key, long revision, String text, Optional<Instant> snapshotAt) {
        this(source, key, revision, text, snapshotAt, false);
    }

    /** A document just read from its source. */
    public static ConfigDocument fresh(String source, String key, long revision, String text) {
        return new ConfigDocument(source, key, revision, text, Optional.empty());
    }

    /** A canary's candidate just read from its source, at the canary's revision. */
    public static ConfigDocument candidate(String source, String key, long revision, String text) {
        return new ConfigDocument(source, key, revision, text, Optional.empty(), true);
    }

    /** Whether it came from a local snapshot, not from its source. */
    public boolean stale() {
        return snapshotAt.isPresent();
    }

    @Override
    public String toString() {
        return "ConfigDocument[" + source + (canary ? ", canary" : "") + ", revision " + revision + ", " + text.length() + " chars"
                + snapshotAt.map(at -> ", snapshot of " + at).orElse("") + "]";
    }
}
