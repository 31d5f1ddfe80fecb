package io.lanemq.api.spi;

/**
 * What a binding did to reset a group's offsets on one cluster.
 *
 * @param queues      queues whose offset was set
 * @param membersTold true when live members of the group were told to move; false when it had none and the committed
 *                    offsets were written
 */
public record BoundOffsetReset(int queues, boolean membersTold) {
}
