package io.lanemq.api;

/**
 * Processes messages of a {@link Subscription}.
 *
 * <p>Called from the SDK's consumer threads: concurrently for a concurrent subscription, one
 * message at a time per sharding key for an ordered one. An exception thrown by the listener is
 * logged once and treated as {@link ConsumeResult#RETRY_LATER}.
 *
 * <pre>{@code
 * MessageListener listener = message -> {
 *     billing.charge(new String(message.body(), StandardCharsets.UTF_8));
 *     return ConsumeResult.SUCCESS;
 * };
 * }</pre>
 */
@FunctionalInterface
public interface MessageListener {
    ConsumeResult consume(ReceivedMessage message);
}
