package io.lanemq.dialtest;

import java.time.InstantSource;
import org.apache.rocketmq.client.producer.DefaultMQProducer;

/**
 * What the delayed kinds share: each probe is due {@link #delayMillis()} after its send, its latency counts from
 * that due time, and it needs no allowance beyond the grace. Subclasses say how the delay is carried.
 */
abstract class DueTimeProbeSender implements ProbeSender {

    protected final DefaultMQProducer producer;
    protected final long timeoutMillis;
    private final long delayMillis;
    private final InstantSource wallClock;

    DueTimeProbeSender(DefaultMQProducer producer, long timeoutMillis, long delayMillis, InstantSource wallClock) {
        this.producer = producer;
        this.timeoutMillis = timeoutMillis;
        this.delayMillis = delayMillis;
        this.wallClock = wallClock;
    }

    @Override
    public final long delayMillis() {
        return delayMillis;
    }

    @Override
    public final long allowanceNanos(long laneSequence) {
        return 0;
    }

    /** When a probe sent now is due, epoch milliseconds. */
    protected final long dueAtMillis() {
        return wallClock.millis() + delayMillis;
    }
}
