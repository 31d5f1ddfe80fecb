package io.lanemq.api.spi;

import io.lanemq.api.MessagingException;
import io.lanemq.api.SendFailedException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A started producer on one cluster. Thread-safe. A message with a sharding key goes to the queue
 * chosen by the key's hash, so equal keys share a queue. Failures are reported as
 * {@link SendFailedException} (or {@link io.lanemq.api.InvalidMessageException} for what the
 * product itself refuses), with the cluster named.
 */
public interface BoundProducer extends AutoCloseable {
    BoundSendResult send(PhysicalMessage message) throws MessagingException;

    /** Completes exceptionally with a {@link MessagingException}. */
    CompletableFuture<BoundSendResult> sendAsync(PhysicalMessage message);

    /**
     * Sends {@code messages} as one request, stored in this order in one queue: the queue of their sharding key
     * (the caller gives either messages without one, or messages that all have the same one), or else a queue
     * the binding picks. They share one physical topic. The future holds one result per message, in the order
     * given, or fails with a {@link MessagingException} for all of them: a batch is answered as a whole.
     */
    CompletableFuture<List<BoundSendResult>> sendBatchAsync(List<PhysicalMessage> messages);

    /** Sends prepared, runs {@code transaction}, ends the transaction by its answer. */
    BoundSendResult sendInTransaction(PhysicalMessage message, BoundLocalTransaction transaction) throws MessagingException;

    /**
     * Sends {@code message} as a request and waits for the consumer's reply through the broker
     * (request-reply), returning the reply's body.
     *
     * @throws SendFailedException no reply within {@code timeout}, or the request was not stored
     */
    byte[] request(PhysicalMessage message, Duration timeout) throws MessagingException;

    @Override
    void close();
}
