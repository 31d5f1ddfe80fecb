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
    RETRY_LATER
}
