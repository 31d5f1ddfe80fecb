package io.lanemq.dialtest;

import java.util.Objects;

/**
 * One ack: the consumer received probe {@code sequence} of run {@code runId}. Carried by {@link AckCodec}.
 *
 * @param receivedEpochMillis the consumer's wall clock when it received the probe (informational: latency is
 *                            measured on the producer's monotonic clock, which no clock skew can distort)
 * @param redeliveries        RocketMQ's reconsume count of that delivery, capped at 65535
 */
public record AckFrame(long runId, long sequence, ProbeKind kind, long receivedEpochMillis, int redeliveries) {

    public AckFrame {
        Objects.requireNonNull(kind, "kind");
        if (redeliveries < 0) {
            throw new IllegalArgumentException("redeliveries must not be negative: " + redeliveries);
        }
    }
}
