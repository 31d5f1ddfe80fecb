package io.lanemq.core.config;

/**
 * How one consumer group consumes.
 *
 * @param threads             listener threads per cluster
 * @param maxDeliveryAttempts deliveries before a message goes to the group's dead-letter topic
 * @param startPosition       where the group starts when it has no committed offset
 * @param batchSize           messages fetched from a queue per request
 * @param mode                DIRECT or PROXY consumption
 */
public record ConsumerSettings(int threads, int maxDeliveryAttempts, StartPosition startPosition, int batchSize,
                               ConsumptionMode mode) {
    public static final int DEFAULT_BATCH_SIZE = 32;
    public static final ConsumerSettings DEFAULTS = new ConsumerSettings(8, 16, StartPosition.LATEST);

    /** DIRECT consumption with the default batch size. */
    public ConsumerSettings(int threads, int maxDeliveryAttempts, StartPosition startPosition) {
        this(threads, maxDeliveryAttempts, startPosition, DEFAULT_BATCH_SIZE, ConsumptionMode.DIRECT);
    }

    public ConsumerSettings withThreads(int newThreads) {
        return new ConsumerSettings(newThreads, maxDeliveryAttempts, startPosition, batchSize, mode);
    }

    public ConsumerSettings withMode(ConsumptionMode newMode) {
        return new ConsumerSettings(threads, maxDeliveryAttempts, startPosition, batchSize, newMode);
    }
}
