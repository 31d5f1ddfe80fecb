package io.lanemq.api;

/** What a {@link MessageListener} did with a message. */
public enum ConsumeResult {
    /** Processed; the message is acknowledged and not delivered again to this consumer group. */
    SUCCESS,
    /**
     * Not processed now; deliver it again later (with a growing back-off, up to the configured
     * maximum attempts, after which it goes to the group's dead-letter topic). For ordered
     * subscriptions the queue pauses briefly and the same message comes again, keeping order.
     */
    RETRY_LATER,
    /**
     * Will never be processed (a payload that cannot be read, a business rule that rejects it): the
     * message goes to the group's dead-letter topic at once, without using its remaining attempts,
     * and the consumer moves on. Ordered subscriptions move on to the next message of the queue.
     * Operators see it there and can replay it once the cause is fixed.
     */
    DEAD_LETTER
}
