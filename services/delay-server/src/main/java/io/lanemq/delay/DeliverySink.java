package io.lanemq.delay;

import java.util.concurrent.CompletionStage;

/**
 * Where due records go: in the server, a send to the record's original topic through the SDK.
 *
 * <p>Called on the engine's {@code lanemq-delay-wheel} thread, one record at a time, in due-time
 * order; a slow {@code deliver} delays every record due after it, so start the send and return
 * its future. The engine marks the record delivered (durably) only when the returned stage
 * completes normally; if it completes exceptionally, or {@code deliver} throws, the record is
 * retried with backoff. A crash between the send and the mark therefore means a duplicate after
 * restart, never a loss.
 *
 * <pre>{@code
 * DeliverySink sink = record -> producer.sendAsync(toMessage(record));
 * }</pre>
 */
@FunctionalInterface
public interface DeliverySink {

    /**
     * Starts delivering {@code record}.
     *
     * @return completes normally once the record is safely handed on (e.g. the broker acknowledged it)
     */
    CompletionStage<?> deliver(DelayedRecord record);
}
