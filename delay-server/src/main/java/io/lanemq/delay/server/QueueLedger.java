package io.lanemq.delay.server;

import io.lanemq.delay.DelayId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * The offsets of one internal-topic queue that are consumed but not yet safe to commit: a record
 * is held from the moment it is read until the engine settles it (delivered and marked, or
 * cancelled) or a re-enqueued copy of it is acknowledged upstream. The offset to commit is the
 * lowest one held, or the next unread one when none is held, so a restart or a new owner re-reads
 * exactly what might not be safe. Thread-safe (one lock; the poll, settlement and maintenance
 * threads all touch it).
 */
final class QueueLedger {

    /** One held offset. {@code reenqueuing}: a copy is being sent upstream; do not send another. */
    static final class Held {
        final long offset;
        final DelayId id;
        final long heldSinceMillis;
        boolean reenqueuing;

        Held(long offset, DelayId id, long heldSinceMillis) {
            this.offset = offset;
            this.id = id;
            this.heldSinceMillis = heldSinceMillis;
        }
    }

    final MessageQueue queue;
    private final TreeMap<Long, Held> held = new TreeMap<>();
    /** One past the highest offset read; -1 before the first read. */
    private long next = -1;
    private long lastCommitted = -1;

    QueueLedger(MessageQueue queue) {
        this.queue = queue;
    }

    /** An offset read and already safe (a cancel, a malformed message). */
    synchronized void read(long offset) {
        next = Math.max(next, offset + 1);
    }

    /** An offset read whose record must be settled before it may be committed. */
    synchronized void hold(long offset, DelayId id, long nowMillis) {
        read(offset);
        held.put(offset, new Held(offset, id, nowMillis));
    }

    synchronized void release(long offset) {
        held.remove(offset);
    }

    /** The ids of every held record: what this server hands over when the queue is taken away. */
    synchronized List<DelayId> heldIds() {
        List<DelayId> ids = new ArrayList<>(held.size());
        held.values().forEach(h -> ids.add(h.id));
        return ids;
    }

    synchronized int heldCount() {
        return held.size();
    }

    /**
     * The offset to commit if it moved since the last call, else -1. Never below what was
     * committed before (a late duplicate must not move the group back).
     */
    synchronized long toCommit() {
        if (next < 0) {
            return -1;
        }
        Map.Entry<Long, Held> lowest = held.firstEntry();
        long offset = lowest == null ? next : lowest.getKey();
        if (offset <= lastCommitted) {
            return -1;
        }
        lastCommitted = offset;
        return offset;
    }

    /**
     * Held records read at least {@code afterMillis} ago and not already being re-enqueued,
     * oldest first, at most {@code limit}; each is flagged as being re-enqueued.
     */
    synchronized List<Held> claimOverdue(long nowMillis, long afterMillis, int limit) {
        List<Held> out = new ArrayList<>();
        for (Held h : held.values()) {
            if (out.size() >= limit) {
                break;
            }
            if (!h.reenqueuing && nowMillis - h.heldSinceMillis >= afterMillis) {
                h.reenqueuing = true;
                out.add(h);
            }
        }
        return out;
    }

    /** The re-enqueue of {@code h} did not happen (not pending in the engine, or the send failed): try later. */
    synchronized void unclaim(Held h) {
        h.reenqueuing = false;
    }
}
