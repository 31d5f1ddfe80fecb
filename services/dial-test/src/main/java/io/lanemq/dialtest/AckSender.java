package io.lanemq.dialtest;

import java.util.List;

/**
 * The consumer's end of the ack channel: delivers acks to the producer that sent the probes. Implementations are
 * thread-safe. Tests wrap one to drop or repeat acks and check that the reconciliation reports exactly that.
 */
public interface AckSender extends AutoCloseable {

    /**
     * Delivers {@code acks} to the producer listening at {@code host:port}, blocking until they are written.
     *
     * @return how many of them could not be delivered
     */
    int send(String host, int port, List<AckFrame> acks);

    @Override
    void close();
}
