package io.lanemq.proxy;

import io.lanemq.proxy.protocol.Delivery;
import io.lanemq.rocketmq.FetchedMessage;
import java.util.Objects;

/**
 * A message the proxy fetched and has not finished with: what to push (the delivery without its id
 * and attempt), where it came from (so its offset can be released), the ordering key, and how many
 * times it was delivered. Attempts are only touched under the dispatcher's lock.
 */
final class HeldMessage {
    private final Delivery template;
    private final QueueOffsetTracker tracker;
    private final long offset;
    private final String orderKey;
    /** The lane stamped on the message ({@link LaneChoice#BASE} for none). */
    private final String lane;
    private final FetchedMessage source;
    private int attempts;

    /**
     * @param orderKey {@code null} for an unordered message; otherwise cluster and sharding key, so one
     *                 key's messages are delivered one at a time
     * @param source   the message as it was read, for the dead-letter and retry topics
     * @param previousAttempts deliveries before this proxy fetched it (0 for a message new to the group)
     */
    HeldMessage(Delivery template, QueueOffsetTracker tracker, long offset, String orderKey, FetchedMessage source,
                int previousAttempts) {
        this.template = Objects.requireNonNull(template, "template");
        this.tracker = Objects.requireNonNull(tracker, "tracker");
        this.offset = offset;
        this.orderKey = orderKey;
        this.lane = LaneChoice.laneOf(template.getPropertiesMap());
        this.source = source;
        this.attempts = previousAttempts;
    }

    Delivery template() {
        return template;
    }

    QueueOffsetTracker tracker() {
        return tracker;
    }

    long offset() {
        return offset;
    }

    /** {@code null} when unordered. */
    String orderKey() {
        return orderKey;
    }

    String lane() {
        return lane;
    }

    FetchedMessage source() {
        return source;
    }

    int attempts() {
        return attempts;
    }

    int nextAttempt() {
        return ++attempts;
    }

    /** Releases the message's offset: it was acked or dead-lettered. */
    void finish() {
        tracker.finished(offset);
    }

    @Override
    public String toString() {
        return "message " + template.getMessageId() + " (" + template.getCluster() + " " + template.getPhysicalTopic()
                + " queue " + template.getQueueId() + " offset " + offset + ")";
    }
}
