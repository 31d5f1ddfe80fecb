package io.lanemq.dialtest;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Wraps the consumer's ack sender to inject faults the reconciliation must report exactly: the first {@code lose}
 * acks it sees are dropped (the producer never hears of those probes: lost), the next {@code duplicate} are sent
 * twice (duplicated). Everything after passes through unchanged.
 */
final class FaultInjectingAckSender implements AckSender {

    private final AckSender delegate;
    private final int lose;
    private final int duplicate;
    private final AtomicInteger seen = new AtomicInteger();

    FaultInjectingAckSender(AckSender delegate, int lose, int duplicate) {
        this.delegate = delegate;
        this.lose = lose;
        this.duplicate = duplicate;
    }

    @Override
    public int send(String host, int port, List<AckFrame> acks) {
        List<AckFrame> out = new ArrayList<>();
        for (AckFrame ack : acks) {
            int n = seen.getAndIncrement();
            if (n < lose) {
                continue;
            }
            out.add(ack);
            if (n < lose + duplicate) {
                out.add(ack);
            }
        }
        return delegate.send(host, port, out);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
