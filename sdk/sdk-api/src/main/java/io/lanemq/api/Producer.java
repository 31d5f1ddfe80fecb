package io.lanemq.api;

import java.util.concurrent.CompletableFuture;

/**
 * Sends messages to logic topics. The SDK chooses the cluster (IDC) for each send from the
 * platform configuration; the application never names one.
 *
 * <p>Thread-safe: share one producer across the application. Delivery is at least once: when a
 * send fails the message may still have been stored. A message with a
 * {@linkplain Message#shardingKey() sharding key} goes to the same cluster and queue as the
 * others with that key, so an ordered subscription sees them in send order.
 *
 * <pre>{@code
 * try (MessagingClient client = MessagingClient.create(ClientOptions.builder("checkout")
 *             .configLocation("file:/etc/lanemq/platform.yaml").build());
 *      Producer producer = client.createProducer(ProducerOptions.defaults())) {
 *     SendResult result = producer.send(Message.builder("order-paid").body(bytes).build());
 * }
 * }</pre>
 */
public interface Producer extends AutoCloseable {
    /**
     * Sends and waits for the broker's acknowledgement.
     *
     * @throws UnknownTopicException   the logic topic is not configured; nothing was sent
     * @throws InvalidMessageException the message breaks a platform limit; nothing was sent
     * @throws SendFailedException     no cluster acknowledged the message in time
     */
    SendResult send(Message message) throws MessagingException;

    /**
     * Sends without blocking the caller. The future fails with the same exceptions as
     * {@link #send(Message)}; it completes on an SDK thread, so keep callbacks short.
     */
    CompletableFuture<SendResult> sendAsync(Message message);

    /**
     * Stores the message as prepared, runs {@code localTransaction}, then commits or rolls back
     * the message by its answer. An UNKNOWN answer is resolved later through the
     * {@link ProducerOptions#transactionChecker() transaction checker}, which must be set.
     *
     * @throws InvalidConfigurationException this producer has no transaction checker
     */
    SendResult sendInTransaction(Message message, LocalTransaction localTransaction) throws MessagingException;

    /**
     * Cancels a delayed message before it is due, and says whether that worked. The answer comes
     * from the delay server that holds the message, through the cluster that stored it.
     *
     * @param delayId {@link SendResult#delayId()} of the delayed send
     * @throws InvalidMessageException {@code delayId} is not a delay id, or names a cluster the
     *                                 platform configuration does not have; nothing was sent
     * @throws SendFailedException     no delay server answered within the platform's cancel timeout;
     *                                 the cancel request stays queued and takes effect when a server reads it
     */
    CancelOutcome cancelDelayed(String delayId) throws MessagingException;

    /** Waits for in-flight sends, then releases the connections. Closing twice is harmless. */
    @Override
    void close();
}
