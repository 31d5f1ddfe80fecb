package io.lanemq.api;

/** The outcome of a local transaction, as told to the broker. */
public enum TransactionResolution {
    /** Deliver the message. */
    COMMIT,
    /** Discard the message; no consumer ever sees it. */
    ROLLBACK,
    /** Not known yet: the broker will ask the producer group's {@link TransactionChecker} later. */
    UNKNOWN
}
