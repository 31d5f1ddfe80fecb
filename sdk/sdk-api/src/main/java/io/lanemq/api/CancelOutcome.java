package io.lanemq.api;

/** What {@link Producer#cancelDelayed(String)} achieved. */
public enum CancelOutcome {
    /** The message was still pending; it will never be delivered. */
    CANCELLED,
    /** Too late: the message was delivered, or its delivery had started. */
    ALREADY_DELIVERED,
    /** An earlier cancel of the same message already succeeded. */
    ALREADY_CANCELLED,
    /**
     * The delay server holds no message with this id: never sent, or settled so long ago that
     * its record has been discarded.
     */
    UNKNOWN
}
