package io.lanemq.config;

import java.util.function.Supplier;

/**
 * The lifecycle the watching sources share: at most one watch per source, none after close, and close hands
 * back the running one to stop (outside this lock, since stopping waits for a listener call in progress).
 * Thread-safe.
 */
final class WatchSlot<W> {
    private W running;
    private boolean closed;

    /** @throws IllegalStateException the source is closed, or already watched */
    synchronized W start(String source, Supplier<W> starter) {
        if (closed) {
            throw new IllegalStateException(source + " is closed");
        }
        if (running != null) {
            throw new IllegalStateException(source + " is already watched; one listener per source");
        }
        running = starter.get();
        return running;
    }

    /** The running watch, or null. */
    synchronized W running() {
        return running;
    }

    /** Marks the source closed and returns the watch to stop: null when none ran or it was closed already. */
    synchronized W close() {
        if (closed) {
            return null;
        }
        closed = true;
        return running;
    }
}
