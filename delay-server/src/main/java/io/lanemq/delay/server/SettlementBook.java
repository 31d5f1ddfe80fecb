package io.lanemq.delay.server;

import io.lanemq.delay.DelayId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which held offsets wait for which record: when the engine settles an id, every offset read
 * for it (the first copy and any re-read or re-enqueued copies) is released in its
 * {@link QueueLedger}. Thread-safe: each id's list changes atomically with respect to settlement.
 */
final class SettlementBook {

    /** One held offset of one queue. */
    record Waiter(QueueLedger ledger, long offset) {
    }

    private final ConcurrentHashMap<DelayId, List<Waiter>> waiting = new ConcurrentHashMap<>();

    /** Registers a waiter for an id about to be scheduled. */
    void await(DelayId id, Waiter waiter) {
        waiting.compute(id, (k, list) -> {
            List<Waiter> l = list == null ? new ArrayList<>(1) : list;
            l.add(waiter);
            return l;
        });
    }

    /**
     * Adds the waiter only if the id is already waited for, i.e. stored here and pending: a copy
     * this server re-enqueued itself, which then needs no second write to the store.
     */
    boolean joinIfPending(DelayId id, Waiter waiter) {
        boolean[] joined = {false};
        waiting.computeIfPresent(id, (k, list) -> {
            list.add(waiter);
            joined[0] = true;
            return list;
        });
        return joined[0];
    }

    /** The id is settled: releases every offset held for it. */
    void settled(DelayId id) {
        List<Waiter> list = waiting.remove(id);
        if (list != null) {
            for (Waiter w : list) {
                w.ledger().release(w.offset());
            }
        }
    }

    /**
     * One waiter stops waiting: its copy was re-enqueued and acknowledged. The id stays known as
     * pending (possibly with no waiter until the new copy is read) until it settles.
     */
    void leave(DelayId id, Waiter waiter) {
        waiting.computeIfPresent(id, (k, list) -> {
            list.remove(waiter);
            return list;
        });
    }

    /**
     * Forgets that {@code id} is pending here (its record was handed over to another server). Always
     * safe: a later copy then goes through the engine, which knows whether it still holds the id.
     */
    void forget(DelayId id) {
        waiting.remove(id);
    }

    int size() {
        return waiting.size();
    }
}
