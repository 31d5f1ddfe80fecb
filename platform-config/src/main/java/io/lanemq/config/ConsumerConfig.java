package io.lanemq.config;

/**
 * How one consumer group consumes.
 *
 * @param threads             listener threads of one consumer (one application instance) in total, over all the
 *                            clusters of the topic: DIRECT mode splits them over the routes (at least one each),
 *                            PROXY mode runs them as one pool
 * @param maxDeliveryAttempts deliveries before a message goes to the group's dead-letter topic
 * @param startPosition       where the group starts when it has no committed offset
 * @param batchSize           messages fetched from a queue per request
 * @param mode                DIRECT or PROXY consumption
 * @param maxInFlight         PROXY mode: the most messages the proxy holds for the group, fetched and not yet
 *                            acknowledged; 0 leaves it to the proxy's own default
 * @param maxPerSecond        PROXY mode: the most messages per second the proxy fetches for the group; 0 is unlimited
 */
public record ConsumerConfig(int threads, int maxDeliveryAttempts, StartPosition startPosition, int batchSize,
                               ConsumptionMode mode, int maxInFlight, int maxPerSecond) {
    public static final int DEFAULT_BATCH_SIZE = 32;
    public static final ConsumerConfig DEFAULTS = new ConsumerConfig(8, 16, StartPosition.LATEST);

    /** DIRECT consumption with the default batch size. */
    public ConsumerConfig(int threads, int maxDeliveryAttempts, StartPosition startPosition) {
        this(threads, maxDeliveryAttempts, startPosition, DEFAULT_BATCH_SIZE, ConsumptionMode.DIRECT);
    }

    /** No flow limits of its own: the proxy's defaults apply in PROXY mode. */
    public ConsumerConfig(int threads, int maxDeliveryAttempts, StartPosition startPosition, int batchSize,
                            ConsumptionMode mode) {
        this(threads, maxDeliveryAttempts, startPosition, batchSize, mode, 0, 0);
    }

    public ConsumerConfig withThreads(int newThreads) {
        return new ConsumerConfig(newThreads, maxDeliveryAttempts, startPosition, batchSize, mode, maxInFlight, maxPerSecond);
    }

    public ConsumerConfig withMode(ConsumptionMode newMode) {
        return new ConsumerConfig(threads, maxDeliveryAttempts, startPosition, batchSize, newMode, maxInFlight, maxPerSecond);
    }
}
