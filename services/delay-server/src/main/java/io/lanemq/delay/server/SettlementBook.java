package io.lanemq.delay.server;

import io.lanemq.delay.DelayId;
import io.lanemq.rocketmq.QueueRef;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Which held offsets wait for which record: when the engine settles an id, every offset read
 * for it (the first copy and any re-read or re-enqueued copies) is released in its
 * {@link QueueLedger}. Also the one place that holds and releases offsets, so that both stay in
 * step.
 *
 * <p><b>Layout: ~8-16 B per held offset.</b> An open-addressing table (linear probing) of
 * primitive longs, each a held offset's location: its ledger's slot here and the offset. The id
 * itself is not stored twice: a lookup compares the id the ledger holds at that location. An id
 * held at several offsets (a copy read again before the re-enqueue of the first was acknowledged)
 * simply has several entries. Removal shifts the following entries back instead of leaving
 * tombstones, so a lookup never walks past dead slots. The table doubles above 3/4 full and halves
 * below 1/8.
 *
 * <p>Ids whose re-enqueued copy was acknowledged but not read back yet hold no offset and are
 * still pending here: they wait in a small side map, so that reading the copy joins them instead
 * of writing the record to the store again.
 *
 * <p>Thread-safe: one lock; it calls into ledgers while holding it, never the other way round.
 */
final class SettlementBook {

    private static final int OFFSET_BITS = 44;
    private static final long MAX_OFFSET = (1L << OFFSET_BITS) - 1;
    private static final int MIN_CAPACITY = 1 << 10;

    private long[] slots = new long[MIN_CAPACITY];
    private int size;
    private QueueLedger[] ledgers = new QueueLedger[8];
    private final ArrayDeque<Integer> freeLedgerSlots = new ArrayDeque<>();
    private int usedLedgerSlots;
    /** Acknowledged re-enqueues not read back yet: pending here with no offset held. */
    private final Map<DelayId, QueueLedger> awaitingCopy = new HashMap<>();

    /** Makes {@code ledger} known here; its offsets can be held from now on. */
    synchronized QueueLedger register(QueueLedger ledger) {
        if (ledger.bookSlot >= 0) {
            throw new IllegalStateException("ledger already registered [queue=" + ledger.queue + "]");
        }
        Integer free = freeLedgerSlots.poll();
        int slot = free != null ? free : usedLedgerSlots++;
        if (slot >= (1 << (Long.SIZE - 1 - OFFSET_BITS)) - 1) {
            throw new IllegalStateException("too many queue ledgers: " + slot);
        }
        if (slot >= ledgers.length) {
            ledgers = Arrays.copyOf(ledgers, ledgers.length * 2);
        }
        ledgers[slot] = ledger;
        ledger.bookSlot = slot;
        return ledger;
    }

    /**
     * Holds {@code offset} of {@code ledger} for {@code id} until the id settles.
     *
     * @return true if the id was already pending here (held at another offset, or re-enqueued and
     *     acknowledged), or the offset was held already: the record needs no second write to the
     *     store; false if it must be scheduled in the engine
     */
    synchronized boolean hold(QueueLedger ledger, long offset, DelayId id, long nowMillis) {
        if (offset > MAX_OFFSET) {
            throw new IllegalArgumentException("offset " + offset + " above " + MAX_OFFSET + " [queue=" + ledger.queue + "]");
        }
        if (!registered(ledger)) {
            // The queue was handed over while this message was being read: nothing to hold for the new owner.
            return false;
        }
        boolean pending = awaitingCopy.remove(id) != null || contains(id);
        if (!ledger.hold(offset, id, nowMillis)) {
            return true; // this very offset is held already: read twice
        }
        insert(location(ledger, offset));
        return pending;
    }

    /** The id is settled: releases every offset held for it. */
    synchronized void settled(DelayId id) {
        awaitingCopy.remove(id);
        long due = id.dueAtMillis();
        long nonce = id.nonce();
        int mask = slots.length - 1;
        int i = home(due, nonce);
        while (slots[i] != 0) {
            long loc = slots[i];
            if (ledgerAt(loc).holds(offsetOf(loc), due, nonce)) {
                removeAt(i); // slot i now holds the next entry of the run, or nothing
                ledgerAt(loc).release(offsetOf(loc));
            } else {
                i = (i + 1) & mask;
            }
        }
        shrinkIfSparse();
    }

    /**
     * The offset's re-enqueued copy was acknowledged: releases that offset only. The id stays
     * pending here (waiting for its copy if it holds no other offset) until it settles.
     */
    synchronized void leave(QueueLedger ledger, long offset, DelayId id) {
        if (!registered(ledger)) {
            return; // handed over meanwhile: the id is not ours any more
        }
        long loc = location(ledger, offset);
        int mask = slots.length - 1;
        for (int i = home(id.dueAtMillis(), id.nonce()); slots[i] != 0; i = (i + 1) & mask) {
            if (slots[i] == loc) {
                removeAt(i);
                ledger.release(offset);
                break;
            }
        }
        if (!contains(id)) {
            awaitingCopy.put(id, ledger);
        }
        shrinkIfSparse();
    }

    /** Makes room for {@code more} held offsets at once, so restoring a checkpoint does not double the table step by step. */
    synchronized void reserve(long more) {
        long wanted = size + more;
        int capacity = slots.length;
        while (wanted > capacity - (capacity >>> 2) && capacity < (1 << 30)) {
            capacity <<= 1;
        }
        if (capacity != slots.length) {
            resize(capacity);
        }
    }

    /**
     * Holds {@code offset} of a ledger rebuilt from a checkpoint, unverified until the engine is
     * asked about its id ({@link #verify}). Cheaper than {@link #hold}: whether the id is pending
     * elsewhere does not matter here.
     */
    synchronized void restore(QueueLedger ledger, long offset, long due, long nonce) {
        if (offset > MAX_OFFSET) {
            throw new IllegalArgumentException("offset " + offset + " above " + MAX_OFFSET + " [queue=" + ledger.queue + "]");
        }
        if (registered(ledger) && ledger.restoreHold(offset, due, nonce)) {
            if (size + 1 > slots.length - (slots.length >>> 2)) {
                resize(slots.length * 2);
            }
            int mask = slots.length - 1;
            int i = home(due, nonce);
            while (slots[i] != 0) {
                i = (i + 1) & mask;
            }
            slots[i] = location(ledger, offset);
            size++;
        }
    }

    /** A checkpoint's id whose re-enqueued copy was acknowledged but not read back yet. */
    synchronized void restoreAwaiting(DelayId id, QueueLedger ledger) {
        if (registered(ledger)) {
            awaitingCopy.put(id, ledger);
        }
    }

    /** Forgets an id awaiting its copy (the engine does not know it: nothing to wait for). */
    synchronized void forgetAwaiting(DelayId id) {
        awaitingCopy.remove(id);
    }

    /**
     * The engine knows the id (due, nonce): marks its held offsets verified and, if it is already
     * settled, releases them as {@link #settled} would.
     */
    synchronized void verify(long due, long nonce, boolean settled) {
        int mask = slots.length - 1;
        int i = home(due, nonce);
        boolean released = false;
        while (slots[i] != 0) {
            long loc = slots[i];
            QueueLedger ledger = ledgerAt(loc);
            long offset = offsetOf(loc);
            if (ledger.verifyHeld(offset, due, nonce)) {
                if (settled) {
                    removeAt(i); // slot i now holds the next entry of the run, or nothing
                    ledger.release(offset);
                    released = true;
                    continue;
                }
            }
            i = (i + 1) & mask;
        }
        if (settled && !awaitingCopy.isEmpty()) {
            awaitingCopy.remove(new DelayId(due, nonce));
        }
        if (released) {
            shrinkIfSparse();
        }
    }

    /** The ids awaiting their re-enqueued copy, with their queue: for a checkpoint. */
    synchronized Map<DelayId, QueueRef> awaitingSnapshot() {
        Map<DelayId, QueueRef> out = new HashMap<>();
        awaitingCopy.forEach((id, ledger) -> out.put(id, ledger.queue));
        return out;
    }

    /**
     * Forgets every id held by {@code ledger}, whose queue was handed over to another server, and
     * frees its slot. Always safe: a later copy goes through the engine, which knows whether it
     * still holds the id. Rebuilds the table (a rebalance is rare).
     */
    synchronized void drop(QueueLedger ledger) {
        if (!registered(ledger)) {
            return;
        }
        int slot = ledger.bookSlot;
        long[] old = slots;
        slots = new long[old.length];
        size = 0;
        for (long loc : old) {
            if (loc != 0 && ledgerSlotOf(loc) != slot) {
                insert(loc);
            }
        }
        awaitingCopy.values().removeIf(l -> l == ledger);
        ledgers[slot] = null;
        ledger.bookSlot = -1;
        freeLedgerSlots.add(slot);
        shrinkIfSparse();
    }

    /** Held offsets over every ledger. */
    synchronized int size() {
        return size;
    }

    synchronized int awaitingCopies() {
        return awaitingCopy.size();
    }

    /** Heap this book takes: the table, plus ~100 B per id awaiting its copy (HashMap node and id). */
    synchronized long estimatedBytes() {
        return 16L + 8L * slots.length + 100L * awaitingCopy.size() + 4L * ledgers.length + 64;
    }

    private boolean registered(QueueLedger ledger) {
        return ledger.bookSlot >= 0 && ledgers[ledger.bookSlot] == ledger;
    }

    private boolean contains(DelayId id) {
        long due = id.dueAtMillis();
        long nonce = id.nonce();
        int mask = slots.length - 1;
        for (int i = home(due, nonce); slots[i] != 0; i = (i + 1) & mask) {
            if (ledgerAt(slots[i]).holds(offsetOf(slots[i]), due, nonce)) {
                return true;
            }
        }
        return false;
    }

    private void insert(long loc) {
        if (size + 1 > slots.length - (slots.length >>> 2)) {
            resize(slots.length * 2);
        }
        int mask = slots.length - 1;
        int i = homeOf(loc);
        while (slots[i] != 0) {
            i = (i + 1) & mask;
        }
        slots[i] = loc;
        size++;
    }

    /** Backward-shift deletion: moves up every later entry of the run that may live at {@code i}. */
    private void removeAt(int i) {
        int mask = slots.length - 1;
        int hole = i;
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            long loc = slots[j];
            if (loc == 0) {
                break;
            }
            int home = homeOf(loc);
            // The entry at j may move into the hole unless its home lies cyclically in (hole, j].
            boolean homeBetween = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
            if (!homeBetween) {
                slots[hole] = loc;
                hole = j;
            }
        }
        slots[hole] = 0;
        size--;
    }

    private void shrinkIfSparse() {
        if (slots.length > MIN_CAPACITY && size < slots.length >>> 3) {
            resize(slots.length >>> 1);
        }
    }

    private void resize(int capacity) {
        long[] old = slots;
        slots = new long[capacity];
        size = 0;
        for (long loc : old) {
            if (loc != 0) {
                insert(loc);
            }
        }
    }

    private int homeOf(long loc) {
        QueueLedger ledger = ledgerAt(loc);
        long offset = offsetOf(loc);
        return home(ledger.dueAt(offset), ledger.nonceAt(offset));
    }

    private int home(long due, long nonce) {
        long h = due * 0x9E3779B97F4A7C15L ^ nonce;
        h ^= h >>> 31;
        h *= 0xBF58476D1CE4E5B9L;
        h ^= h >>> 29;
        return (int) h & (slots.length - 1);
    }

    private static long location(QueueLedger ledger, long offset) {
        return ((long) (ledger.bookSlot + 1) << OFFSET_BITS) | offset;
    }

    private QueueLedger ledgerAt(long loc) {
        return ledgers[ledgerSlotOf(loc)];
    }

    private static int ledgerSlotOf(long loc) {
        return (int) (loc >>> OFFSET_BITS) - 1;
    }

    private static long offsetOf(long loc) {
        return loc & MAX_OFFSET;
    }
}
