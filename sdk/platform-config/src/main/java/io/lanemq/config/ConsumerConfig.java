package io.lanemq.config;

import io.lanemq.api.Deduplication;
import java.time.Duration;
import java.util.Optional;

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
 * @param deduplicateWindow   how long a consumer of the group remembers the messages it processed, to drop their
 *                            copies (see {@link Deduplication}); zero: off. A subscription's own setting wins
 * @param deduplicateBy       what makes two deliveries one message when {@code deduplicateWindow} is set
 */
public record ConsumerConfig(int threads, int maxDeliveryAttempts, StartPosition startPosition, int batchSize,
                               ConsumptionMode mode, int maxInFlight, int maxPerSecond, Duration deduplicateWindow,
                               Deduplication.Identity deduplicateBy) {
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

    /** No deduplication. */
    public ConsumerConfig(int threads, int maxDeliveryAttempts, StartPosition startPosition, int batchSize,
                            ConsumptionMode mode, int maxInFlight, int maxPerSecond) {
        this(threads, maxDeliveryAttempts, startPosition, batchSize, mode, maxInFlight, maxPerSecond, Duration.ZERO,
                Deduplication.Identity.MESSAGE_ID);
    }

    public ConsumerConfig withThreads(int newThreads) {
        return new ConsumerConfig(newThreads, maxDeliveryAttempts, startPosition, batchSize, mode, maxInFlight, maxPerSecond,
                deduplicateWindow, deduplicateBy);
    }

    public ConsumerConfig withMode(ConsumptionMode newMode) {
        return new ConsumerConfig(threads, maxDeliveryAttempts, startPosition, batchSize, newMode, maxInFlight, maxPerSecond,
                deduplicateWindow, deduplicateBy);
    }

    public ConsumerConfig withDeduplication(Duration window, Deduplication.Identity by) {
        return new ConsumerConfig(threads, maxDeliveryAttempts, startPosition, batchSize, mode, maxInFlight, maxPerSecond,
                window, by);
    }

    /** The group's deduplication; empty when off (or when its window is invalid, which validation reports). */
    public Optional<Deduplication> deduplication() {
        if (deduplicateWindow == null || deduplicateWindow.isZero() || deduplicateWindow.isNegative()) {
            return Optional.empty();
        }
        return Optional.of(deduplicateBy == Deduplication.Identity.FIRST_KEY
                ? Deduplication.byFirstKey(deduplicateWindow) : Deduplication.byMessageId(deduplicateWindow));
    }
}
