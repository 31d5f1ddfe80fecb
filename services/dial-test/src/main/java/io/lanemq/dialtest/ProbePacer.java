package io.lanemq.dialtest;

import java.util.function.LongConsumer;

/**
 * The pacing of one lane: how many probes are due by a given time at a given rate since the lane's start. When the
 * sender falls more than a second of probes behind (a stalled broker call, a starved thread), the probes beyond that
 * second are dropped rather than sent in a burst, and counted, so a report never takes a rate the sender did not
 * reach for one it did. Time comes in as an argument (the caller's {@code Ticker}). Pacing thread only.
 */
final class ProbePacer {

    private long startNanos;
    private long issued;

    ProbePacer(long startNanos) {
        this.startNanos = startNanos;
    }

    /** The rate counts from {@code now}: no burst to catch up with the old one, no gap either. */
    void restart(long now) {
        startNanos = now;
        issued = 0;
    }

    /**
     * How many probes should have been issued by {@code now} at {@code rate} per second; a backlog over one second's
     * worth is given up, and how many probes that drops goes to {@code dropped}.
     */
    long dueCount(long now, double rate, LongConsumer dropped) {
        long due = 1 + (long) ((now - startNanos) * rate / 1e9);
        long maxBacklog = Math.max(1, (long) rate);
        if (due - issued > maxBacklog) {
            long skipped = due - maxBacklog - issued;
            issued += skipped;
            dropped.accept(skipped);
        }
        return due;
    }

    /** One probe was sent (or its send failed). */
    void issued() {
        issued++;
    }

    /** Probes issued or dropped since the start: the lane's sequence number of the next probe. */
    long issuedCount() {
        return issued;
    }

    long nextDueNanos(double rate) {
        return startNanos + (long) (issued * 1e9 / rate);
    }
}
