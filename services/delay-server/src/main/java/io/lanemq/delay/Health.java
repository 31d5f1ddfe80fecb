package io.lanemq.delay;

import java.util.concurrent.atomic.AtomicLong;

/** Tracks {@link StoreHealth}; thread-safe. */
final class Health {

    private final AtomicLong errors = new AtomicLong();
    private volatile boolean writable = true;
    private volatile String lastError = "";

    void appendSucceeded() {
        if (!writable) {
            writable = true;
        }
    }

    void appendFailed(String what) {
        writable = false;
        error(what);
    }

    void error(String what) {
        errors.incrementAndGet();
        lastError = what;
    }

    StoreHealth snapshot() {
        return new StoreHealth(writable, errors.get(), lastError);
    }
}
