package io.lanemq.delay;

/** Redelivery delays after a failed delivery: doubling from {@code initial}, capped at {@code max}. */
record Backoff(long initialMillis, long maxMillis) {

    long delayMillis(int attempt) {
        int doublings = Math.min(Math.max(attempt - 1, 0), 30);
        return Math.min(maxMillis, initialMillis << doublings);
    }
}
