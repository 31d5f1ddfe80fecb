package io.lanemq.proxy;

/**
 * What a {@link GroupDispatcher} reports; called under its lock, so implementations must not block
 * (a dead-letter send is handed to another thread).
 */
interface DispatchListener {
    /** Why a delivery ended without an ack; {@code REJECTED}: the consumer's nack asked for the dead-letter topic. */
    enum FailedBy { NACK, TIMEOUT, DISCONNECT, REJECTED }

    void delivered(ConsumerSession session, HeldMessage message);

    /** The consumer disconnected; what it held is already being delivered again. */
    default void left(ConsumerSession session) {
    }

    /** Acked: the message's offset is already released. */
    void acked(HeldMessage message);

    /** The delivery failed and the message will be delivered again. */
    void willRedeliver(HeldMessage message, FailedBy reason);

    /**
     * The message failed its last allowed attempt, or its consumer rejected it: it must go to the dead-letter topic, and only
     * then be finished ({@link HeldMessage#finish()}), so a crash before that redelivers it.
     */
    void deadLetter(HeldMessage message, FailedBy reason);

    /**
     * The message will be delivered again after {@code delayNanos}: true when the listener takes the wait over
     * (it then finishes the message once it is stored elsewhere, e.g. in the retry topic), false to leave it to
     * the dispatcher's memory.
     */
    default boolean parked(HeldMessage message, long delayNanos) {
        return false;
    }
}
