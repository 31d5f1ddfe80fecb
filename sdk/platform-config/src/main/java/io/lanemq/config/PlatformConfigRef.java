package io.lanemq.config;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The one reference through which producers and consumers read the current configuration. Each
 * operation reads {@link #current()} once and works on that snapshot, so a reload that swaps the
 * reference mid-send never shows it a half-applied configuration.
 */
public final class PlatformConfigRef {
    private final AtomicReference<PlatformConfig> current;

    public PlatformConfigRef(PlatformConfig initial) {
        this.current = new AtomicReference<>(Objects.requireNonNull(initial, "initial"));
    }

    public PlatformConfig current() {
        return current.get();
    }

    /** Replaces the snapshot as a whole. */
    public void swap(PlatformConfig next) {
        current.set(Objects.requireNonNull(next, "next"));
    }
}
