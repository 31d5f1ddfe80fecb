package io.lanemq.delay.server;

import io.lanemq.delay.DelayId;
import io.lanemq.rocketmq.QueueRef;
import io.lanemq.rocketmq.reader.OffsetLedger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The offsets of one internal-topic queue that are consumed but not yet safe to commit: a record
 * is held from the moment it is read until the engine settles it (delivered and marked, or
 * cancelled) or a re-enqueued copy of it is acknowledged upstream. The offset to commit is the
 * lowest one held, or the next unread one when none is held, so a restart or a new owner re-reads
 * exactly what might not be safe.
 *
 * <p><b>Layout: ~16 B per offset between the lowest held one and the newest.</b> A queue's offsets
 * are read in increasing order, so they are kept in chunks of {@value #CHUNK} consecutive offsets,
 * each two {@code long[]} (the id's due time and nonce, indexed by {@code offset - chunk start})
 * and two bitsets (held, being re-enqueued). A chunk whose offsets are all released and that no
 * longer receives new offsets is dropped. Read times are coarse checkpoints ({@link ReadTimes}),
 * not one per offset. An offset read out of order (a late copy below the others) simply lands in
 * its own chunk. Re-enqueueing keeps the lowest held offset at most about {@code reenqueueAfter}
 * old, so the span kept is what the queue read in that time.
 *
 * <p>Ids are held here only; which offsets an id holds is found through the {@link SettlementBook},
 * which is the only caller of {@link #hold} and {@link #release}. Thread-safe (one lock; the poll,
 * settlement and maintenance threads all touch it); the book calls in while holding its own lock,
 * never the other way round.
 */
final class QueueLedger implements OffsetLedger {

    /** Offsets per chunk: 16 KiB of ids per chunk, little waste when a chunk is dropped late. */
    static final int CHUNK = 1024;
    private static final int CHUNK_SHIFT = Integer.numberOfTrailingZeros(CHUNK);
    /** Bytes of one chunk: the two id arrays, the two bitsets, the array and object headers. */
    private static final long CHUNK_BYTES = 16L * CHUNK + 2L * (CHUNK / 8) + 4 * 16 + 32 + 48;
    static final long DEFAULT_READ_GRANULARITY_MILLIS = 1_000;

    /** One held offset handed out for re-enqueueing. */
    record Held(long offset, DelayId id) {
    }

    /** What a checkpoint records of this ledger besides its held offsets. */
    record Header(long committed, long next, long[] readOffsets, long[] readMillis) {
    }

    private static final class Chunk {
        final long[] due = new long[CHUNK];
        final long[] nonce = new long[CHUNK];
        final long[] held = new long[CHUNK / 64];
        final long[] claimed = new long[CHUNK / 64];
        /** Only while a checkpoint is being checked against the engine: held offsets whose id the engine knows. */
        long[] verified;
        int heldCount;

        boolean isHeld(int i) {
            return (held[i >>> 6] & (1L << i)) != 0;
        }

        boolean isClaimed(int i) {
            return (claimed[i >>> 6] & (1L << i)) != 0;
        }

        /** The first held index at or after {@code from}, or -1. */
        int nextHeld(int from) {
            for (int w = from >>> 6; w < held.length; w++) {
                long bits = held[w] & (w == from >>> 6 ? -1L << from : -1L);
                if (bits != 0) {
                    return (w << 6) + Long.numberOfTrailingZeros(bits);
                }
            }
            return -1;
        }
    }

    final QueueRef queue;
    /** Chunks by {@code offset >>> CHUNK_SHIFT}. */
    private final TreeMap<Long, Chunk> chunks = new TreeMap<>();
    private final ReadTimes readTimes;
    /** One past the highest offset read; -1 before the first read. */
    private long next = -1;
    private long lastCommitted = -1;
    private long heldCount;
    /** Taken away by a rebalance: never committed again (its records are handed over, not forgotten here). */
    private boolean revoked;
    /** The chunk the last restored offset went to: a checkpoint restores in offset order. */
    private long restoreKey = -1;
    private Chunk restoreChunk;
    /** The ledger's slot in its {@link SettlementBook}; -1 when not (or no longer) registered. */
    int bookSlot = -1;

    QueueLedger(QueueRef queue) {
        this(queue, DEFAULT_READ_GRANULARITY_MILLIS);
    }

    QueueLedger(QueueRef queue, long readGranularityMillis) {
        this.queue = queue;
        this.readTimes = new ReadTimes(readGranularityMillis);
    }

    /** An offset read and already safe (a cancel, a malformed message). */
    synchronized void read(long offset) {
        next = Math.max(next, offset + 1);
    }

    /**
     * An offset read whose record must be settled before it may be committed. Only the
     * {@link SettlementBook} calls this, so that it can find the offset again by id.
     *
     * @return false if the offset is held already (read twice): nothing changed
     */
    synchronized boolean hold(long offset, DelayId id, long nowMillis) {
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset + " [queue=" + queue + "]");
        }
        read(offset);
        Chunk c = chunks.computeIfAbsent(offset >>> CHUNK_SHIFT, k -> new Chunk());
        int i = index(offset);
        if (c.isHeld(i)) {
            return false;
        }
        c.due[i] = id.dueAtMillis();
        c.nonce[i] = id.nonce();
        c.held[i >>> 6] |= 1L << i;
        c.heldCount++;
        heldCount++;
        readTimes.read(offset, nowMillis);
        return true;
    }

    /** For a checkpoint: the offset last committed (-1 if none), the next to read, the read times. */
    synchronized Header header() {
        return new Header(lastCommitted, next, readTimes.offsets(), readTimes.millis());
    }

    /**
     * Starts a ledger rebuilt from a checkpoint: {@code committed} is what the broker has, {@code next}
     * where reading resumes. Held offsets follow through {@link SettlementBook#restore}, checked
     * until {@link #endVerification}.
     */
    synchronized void restoreHeader(long committed, long next, long[] readOffsets, long[] readMillis) {
        this.lastCommitted = committed;
        this.next = Math.max(this.next, next);
        for (int i = 0; i < readOffsets.length; i++) {
            readTimes.read(readOffsets[i], readMillis[i]);
        }
    }

    /** Holds an offset from a checkpoint, unverified; only the {@link SettlementBook} calls this. */
    synchronized boolean restoreHold(long offset, long due, long nonce) {
        long key = offset >>> CHUNK_SHIFT;
        Chunk c = key == restoreKey ? restoreChunk : null; // offsets come in order: mostly the same chunk
        if (c == null) {
            c = chunks.computeIfAbsent(key, k -> new Chunk());
            restoreKey = key;
            restoreChunk = c;
        }
        int i = index(offset);
        if (c.isHeld(i)) {
            return false;
        }
        if (c.verified == null) {
            c.verified = new long[CHUNK / 64];
        }
        c.due[i] = due;
        c.nonce[i] = nonce;
        c.held[i >>> 6] |= 1L << i;
        c.heldCount++;
        heldCount++;
        return true;
    }

    /**
     * Whether {@code offset} is held for the id (due, nonce), as {@link #holds}; if so, marks it
     * known to the engine (when a verification is under way). One lookup for the store walk's hot path.
     */
    synchronized boolean verifyHeld(long offset, long due, long nonce) {
        Chunk c = chunks.get(offset >>> CHUNK_SHIFT);
        int i = index(offset);
        if (c == null || !c.isHeld(i) || c.due[i] != due || c.nonce[i] != nonce) {
            return false;
        }
        if (c.verified != null) {
            c.verified[i >>> 6] |= 1L << i;
        }
        return true;
    }

    /** Ends a verification: returns how many held offsets the engine did not know, and forgets the marks. */
    synchronized long endVerification() {
        long unknown = 0;
        restoreChunk = null;
        restoreKey = -1;
        for (Chunk c : chunks.values()) {
            if (c.verified != null) {
                for (int w = 0; w < c.held.length; w++) {
                    unknown += Long.bitCount(c.held[w] & ~c.verified[w]);
                }
                c.verified = null;
            }
        }
        return unknown;
    }

    /** Lets go of a held offset. Only the {@link SettlementBook} calls this. */
    synchronized void release(long offset) {
        Long key = offset >>> CHUNK_SHIFT;
        Chunk c = chunks.get(key);
        int i = index(offset);
        if (c == null || !c.isHeld(i)) {
            return;
        }
        c.held[i >>> 6] &= ~(1L << i);
        c.claimed[i >>> 6] &= ~(1L << i);
        c.heldCount--;
        heldCount--;
        if (c.heldCount == 0 && key < (next >>> CHUNK_SHIFT)) {
            chunks.remove(key); // nothing held and no new offset will land in it
            if (key == restoreKey) {
                restoreChunk = null;
                restoreKey = -1;
            }
        }
    }

    /** Whether {@code offset} is held for the id (due, nonce). */
    synchronized boolean holds(long offset, long due, long nonce) {
        Chunk c = chunks.get(offset >>> CHUNK_SHIFT);
        int i = index(offset);
        return c != null && c.isHeld(i) && c.due[i] == due && c.nonce[i] == nonce;
    }

    synchronized boolean isHeld(long offset) {
        Chunk c = chunks.get(offset >>> CHUNK_SHIFT);
        return c != null && c.isHeld(index(offset));
    }

    /** The id held at {@code offset}; only meaningful while it is held. */
    synchronized long dueAt(long offset) {
        return chunk(offset).due[index(offset)];
    }

    synchronized long nonceAt(long offset) {
        return chunk(offset).nonce[index(offset)];
    }

    /** Held offsets at or above {@code fromOffset}, in order, at most {@code limit}: for handing a queue over in pages. */
    synchronized List<Held> held(long fromOffset, int limit) {
        List<Held> out = new ArrayList<>(Math.min(limit, (int) Math.min(heldCount, 65_536)));
        Map.Entry<Long, Chunk> first = chunks.floorEntry(fromOffset >>> CHUNK_SHIFT);
        Long startKey = first == null ? null : first.getKey();
        for (Map.Entry<Long, Chunk> e : (startKey == null ? chunks : chunks.tailMap(startKey, true)).entrySet()) {
            long base = e.getKey() << CHUNK_SHIFT;
            Chunk c = e.getValue();
            for (int i = c.nextHeld(0); i >= 0; i = i + 1 < CHUNK ? c.nextHeld(i + 1) : -1) {
                if (out.size() >= limit) {
                    return out;
                }
                if (base + i >= fromOffset) {
                    out.add(new Held(base + i, new DelayId(c.due[i], c.nonce[i])));
                }
            }
        }
        return out;
    }

    synchronized long heldCount() {
        return heldCount;
    }

    /**
     * The offset to commit if it moved since the last call, else -1. Never below what was
     * committed before (a late duplicate must not move the group back).
     */
    synchronized long toCommit() {
        if (revoked || next < 0) {
            return -1;
        }
        long lowest = lowestHeld();
        long offset = lowest < 0 ? next : lowest;
        readTimes.forgetBelow(offset);
        if (offset <= lastCommitted) {
            return -1;
        }
        lastCommitted = offset;
        return offset;
    }

    /** {@link #toCommit()} for the reader: what it returns is committed at once. */
    @Override
    public OptionalLong committableOffset() {
        long offset = toCommit();
        return offset < 0 ? OptionalLong.empty() : OptionalLong.of(offset);
    }

    /** Held offsets stay: the service hands their records over after this. */
    @Override
    public synchronized void revoke() {
        revoked = true;
    }

    /** The lowest held offset, or -1; drops the empty chunks it passes (their offsets moved on). */
    private long lowestHeld() {
        long writeChunk = next >>> CHUNK_SHIFT;
        Iterator<Map.Entry<Long, Chunk>> it = chunks.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Long, Chunk> e = it.next();
            Chunk c = e.getValue();
            if (c.heldCount > 0) {
                return (e.getKey() << CHUNK_SHIFT) + c.nextHeld(0);
            }
            if (e.getKey() < writeChunk) {
                it.remove();
                if (e.getKey() == restoreKey) {
                    restoreChunk = null;
                    restoreKey = -1;
                }
            }
        }
        return -1;
    }

    /**
     * Held records read at least {@code afterMillis} ago (by {@link ReadTimes}, so up to one
     * granularity early) and not already being re-enqueued, oldest first, at most {@code limit};
     * each is flagged as being re-enqueued.
     */
    synchronized List<Held> claimOverdue(long nowMillis, long afterMillis, int limit) {
        List<Held> out = new ArrayList<>();
        for (Map.Entry<Long, Chunk> e : chunks.entrySet()) {
            long base = e.getKey() << CHUNK_SHIFT;
            Chunk c = e.getValue();
            for (int i = c.nextHeld(0); i >= 0; i = i + 1 < CHUNK ? c.nextHeld(i + 1) : -1) {
                if (out.size() >= limit || nowMillis - readTimes.readAt(base + i) < afterMillis) {
                    return out; // read times only grow with the offset: nothing later is overdue
                }
                if (!c.isClaimed(i)) {
                    c.claimed[i >>> 6] |= 1L << i;
                    out.add(new Held(base + i, new DelayId(c.due[i], c.nonce[i])));
                }
            }
        }
        return out;
    }

    /** The re-enqueue of {@code offset} did not happen (not pending in the engine, or the send failed): try later. */
    synchronized void unclaim(long offset) {
        Chunk c = chunks.get(offset >>> CHUNK_SHIFT);
        if (c != null) {
            int i = index(offset);
            c.claimed[i >>> 6] &= ~(1L << i);
        }
    }

    /** Heap this ledger takes, from its chunk count: what the {@code ledger.bytes} gauge sums. */
    synchronized long estimatedBytes() {
        return chunks.size() * (CHUNK_BYTES + 40) + readTimes.estimatedBytes() + 96;
    }

    private Chunk chunk(long offset) {
        Chunk c = chunks.get(offset >>> CHUNK_SHIFT);
        if (c == null) {
            throw new IllegalStateException("offset " + offset + " is not held [queue=" + queue + "]");
        }
        return c;
    }

    private static int index(long offset) {
        return (int) (offset & (CHUNK - 1));
    }
}
