package io.lanemq.rocketmq;

import io.lanemq.api.spi.BoundMessage;
import java.time.Instant;
import java.util.Objects;

/**
 * A message stored in a consumer group's dead-letter topic on one cluster, as {@link DeadLetterQueue} read it.
 *
 * @param cluster        the cluster whose dead-letter topic holds it
 * @param originalTopic  the physical topic it was consumed from (RocketMQ records it on the dead letter)
 * @param message        the message as the group's consumers saw it: its id, body, keys, tag, sharding key and user
 *                       properties (lane and stress marks included)
 * @param deadLetteredAt when the dead-letter topic stored it
 * @param deliveries     the deliveries to the group recorded with it (RocketMQ's reconsume count, which the broker
 *                       raises when it moves a message there)
 */
public record DeadLetter(String cluster, String originalTopic, BoundMessage message, Instant deadLetteredAt, int deliveries) {
    public DeadLetter {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(deadLetteredAt, "deadLetteredAt");
    }

    /** When its producer sent it. */
    public Instant bornAt() {
        return Instant.ofEpochMilli(message.bornTimestamp());
    }
}
