package io.lanemq.delay;

/** What the store says about an id, from its first copy: see {@link DelayEngine#forEachRecord}. */
public enum RecordState {
    /** Stored and not settled: waiting for its due time, or handed to the sink and not yet confirmed. */
    PENDING,
    /** Delivered (the sink confirmed it). */
    DELIVERED,
    /** Cancelled before delivery. */
    CANCELLED
}
