package io.lanemq.proxy;

import io.lanemq.proxy.protocol.Delivery;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One connected consumer as the dispatcher sees it: its credits, the deliveries it holds and
 * where to push. Mutated only under the owning {@link GroupDispatcher}'s lock.
 */
final class ConsumerSession {
    /**
     * Where deliveries go: the gRPC stream. Called after the dispatcher's lock is released, possibly by
     * two threads at once, so it must serialise its own writes.
     */
    interface DeliverySink {
        /** Deliveries decided together for this consumer, in order; the sink may send them as one frame. */
        void push(List<Delivery> deliveries);
    }

    static final long MAX_CREDITS = Integer.MAX_VALUE;

    private final String consumerId;
    /** The lane it runs in ({@link LaneChoice#BASE} for the base): only messages {@link LaneChoice} gives this lane come here. */
    private final String lane;
    private final DeliverySink sink;
    final Set<Long> outstanding = new HashSet<>();
    long credits;
    boolean connected = true;
    /** Deliveries handed to this consumer, counted from the group's least-served consumer when it joined. */
    long served;

    ConsumerSession(String consumerId, String lane, long credits, DeliverySink sink) {
        this.consumerId = consumerId;
        this.lane = lane;
        this.credits = credits;
        this.sink = sink;
    }

    String consumerId() {
        return consumerId;
    }

    String lane() {
        return lane;
    }

    DeliverySink sink() {
        return sink;
    }

    @Override
    public String toString() {
        return lane.isEmpty() ? "consumer " + consumerId : "consumer " + consumerId + " (lane " + lane + ")";
    }
}
