package io.lanemq.proxy;

import io.lanemq.rocketmq.reader.OffsetLedger;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * The offsets of one queue that the proxy fetched and has not finished with (acked or
 * dead-lettered), so the queue's committed offset never passes an unfinished message: acks arrive
 * out of order, and committing the highest acked offset would lose every unacked message below it
 * when the proxy restarts or the queue moves to another proxy instance.
 *
 * <p>The committable offset is the lowest unfinished offset, or one past the highest fetched offset
 * when nothing is unfinished (RocketMQ's committed offset is the next offset to consume). After a
 * rebalance takes the queue away the tracker is revoked: later resolutions are ignored and it is
 * never committed again, since the new owner continues from what was committed. Thread-safe.
 */
final class QueueOffsetTracker implements OffsetLedger {
    private final TreeSet<Long> unfinished = new TreeSet<>();
    private long nextOffset = -1;
    private boolean revoked;

    synchronized void fetched(long offset) {
        if (revoked) {
            return;
        }
        unfinished.add(offset);
        nextOffset = Math.max(nextOffset, offset + 1);
    }

    /** The message at {@code offset} was acked or dead-lettered. */
    synchronized void finished(long offset) {
        unfinished.remove(offset);
    }

    /** The next offset to consume that is safe to commit; empty before the first fetch or once revoked. */
    @Override
    public synchronized OptionalLong committableOffset() {
        if (revoked || nextOffset < 0) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(unfinished.isEmpty() ? nextOffset : unfinished.first());
    }

    synchronized int unfinishedCount() {
        return unfinished.size();
    }

    @Override
    public synchronized void revoke() {
        revoked = true;
        unfinished.clear();
    }

    synchronized boolean isRevoked() {
        return revoked;
    }
}
