package io.lanemq.spring;

import io.lanemq.api.ReceivedMessage;

/**
 * What a listener does with a message it failed for the last time, just before the message would go to the group's
 * dead-letter topic: log it with context, park it in a table, raise an alert. Name the bean in
 * {@link LaneMqListener#errorHandler()}.
 *
 * <p>Called on the listener's thread, in the message's context, when the failure is final: at once for a failure that
 * is not retried ({@link LaneMqListener#notRetryable()}, {@code lanemq.retry.*}, a payload that cannot be converted, a
 * {@code DEAD_LETTER} answer), and otherwise only when the SDK knows the attempt is the last
 * ({@link ReceivedMessage#lastDeliveryAttempt()}, in DIRECT mode and through the consumer proxy); earlier attempts are
 * retried without it. A listener's exception, and a {@code RETRY_LATER} answer, both count as failures. A batch
 * listener's handler is called once for each message of the batch that failed.
 *
 * <pre>{@code
 * @Bean
 * LaneMqErrorHandler parkFailedOrders(ParkingLot parking) {
 *     return (message, failure) -> {
 *         parking.park(message.messageId(), message.body(), failure.toString());
 *         return LaneMqErrorHandler.Resolution.ACKNOWLEDGE;       // parked: do not dead-letter it
 *     };
 * }
 * }</pre>
 */
@FunctionalInterface
public interface LaneMqErrorHandler {
    /**
     * @param message the message, on its last delivery attempt or rejected
     * @param failure what the listener threw, or an {@link IllegalStateException} saying what it answered
     * @return whether the message is settled here or still goes to the dead-letter topic; an exception thrown here
     *         is logged and the message goes to the dead-letter topic
     */
    Resolution handle(ReceivedMessage message, Throwable failure);

    /** What becomes of the message after the handler. */
    enum Resolution {
        /** The handler settled it (parked, compensated): acknowledge, nothing goes to the dead-letter topic. */
        ACKNOWLEDGE,
        /** Let it go to the group's dead-letter topic as without a handler (after logging or alerting). */
        DEAD_LETTER
    }
}
