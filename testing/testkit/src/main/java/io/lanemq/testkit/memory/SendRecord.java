package io.lanemq.testkit.memory;

import io.lanemq.api.spi.PhysicalMessage;

/**
 * One send a producer asked of a cluster, as the cluster answered it.
 *
 * @param cluster  where it was sent
 * @param kind     plain send, transaction (its prepared message) or request
 * @param message  what was sent
 * @param outcome  how the cluster answered
 * @param request  the number of the request that carried it, counted per cluster from 1: messages of one batch
 *                 request share it
 */
public record SendRecord(String cluster, Kind kind, PhysicalMessage message, Outcome outcome, long request) {
    public enum Kind { SEND, BATCH, TRANSACTION, REQUEST }

    public enum Outcome {
        /** Stored (for a transaction: prepared, whatever the local transaction then answered). */
        STORED,
        /** Answered with a failure; nothing stored. */
        FAILED,
        /** Never answered (the cluster was silent); nothing stored. */
        UNANSWERED
    }
}
