package io.lanemq.api;

import java.util.List;

/**
 * Processes the messages of a {@link Subscription} several at a time: one database round trip, one bulk index
 * request for a whole batch. Subscribe it with {@link MessagingClient#subscribe(Subscription, Batching,
 * BatchMessageListener)}.
 *
 * <p>A batch holds the messages that the consumer's listener threads have in hand at once (at most
 * {@link Batching#maxMessages()}, gathered for at most {@link Batching#maxWait()}), all in one {@link MessageContext}:
 * messages of different lanes, or stress-test and production messages, never share a batch, and the listener runs in
 * the batch's context, so what it sends carries the right marks. The consumer's listener threads bound the batch size:
 * give it at least as many threads as {@code maxMessages} (the {@code threads} of its group or subscription).
 *
 * <p>Delivery stays per message: each message of the batch is acknowledged or retried by the {@link BatchResult}, with
 * its own attempt count and dead-letter topic; an exception thrown here is logged once and retries the whole batch.
 * Called concurrently for different batches.
 *
 * <pre>{@code
 * client.subscribe(Subscription.builder("order-paid", "ledger").threads(64).build(),
 *         Batching.of(64, Duration.ofMillis(20)),
 *         messages -> {
 *             int stored = ledger.insertAll(messages);           // stops at the first row it cannot store
 *             return stored == messages.size() ? BatchResult.success() : BatchResult.retryFrom(stored);
 *         });
 * }</pre>
 */
@FunctionalInterface
public interface BatchMessageListener {
    /** @param messages one to {@link Batching#maxMessages()} messages, in the order their deliveries arrived */
    BatchResult consume(List<ReceivedMessage> messages);
}
