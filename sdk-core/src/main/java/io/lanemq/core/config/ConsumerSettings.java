package io.lanemq.core.config;

/**
 * How one consumer group consumes.
 *
 * @param threads             listener threads per cluster
 * @param maxDeliveryAttempts deliveries before a message goes to the group's dead-letter topic
 * @param startPosition       where the group starts when it has no committed offset
 */
public record ConsumerSettings(int threads, int maxDeliveryAttempts, StartPosition startPosition) {
    public static final ConsumerSettings DEFAULTS = new ConsumerSettings(8, 16, StartPosition.LATEST);
}
