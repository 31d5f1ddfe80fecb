package io.lanemq.delay;

/** The answer to {@link DelayEngine#cancel(DelayId)}. */
public enum CancelResult {
    /** The record was pending; it is now cancelled, durably, and will never be delivered. */
    CANCELLED,
    /**
     * Too late: the record was delivered, or its delivery has started (the sink was called), so
     * it can no longer be recalled.
     */
    ALREADY_DELIVERED,
    /** An earlier cancel of the same id already succeeded. */
    ALREADY_CANCELLED,
    /**
     * No record with this id is stored: never scheduled here, or settled longer ago than the
     * engine's settled-segment retention (its segment has been deleted since).
     */
    UNKNOWN
}
