package io.lanemq.rocketmq.reader;

import io.lanemq.rocketmq.QueueRef;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The ledgers of the queues a reader holds, and the two steps it takes on them: commit what they
 * allow, and revoke those of queues a rebalance took away. Apart from the consumer so the steps are
 * tested without a broker. Thread-safe.
 */
final class QueueLedgers<L extends OffsetLedger> {

    /** Where commits go: the lite pull consumer's offset store, or a fake in tests. */
    @FunctionalInterface
    interface OffsetSink {
        void commit(Map<QueueRef, Long> offsets);
    }

    private final Map<QueueRef, L> ledgers = new ConcurrentHashMap<>();
    private final Function<QueueRef, L> factory;
    /** The last offset committed per queue, so an unchanged one is not sent again. Guarded by {@code this}. */
    private final Map<QueueRef, Long> committed = new HashMap<>();

    QueueLedgers(Function<QueueRef, L> factory) {
        this.factory = factory;
    }

    L ledger(QueueRef queue) {
        return ledgers.computeIfAbsent(queue, factory);
    }

    L find(QueueRef queue) {
        return ledgers.get(queue);
    }

    void adopt(QueueRef queue, L ledger) {
        ledgers.put(queue, ledger);
    }

    boolean forget(QueueRef queue, L ledger) {
        return ledgers.remove(queue, ledger);
    }

    Collection<L> all() {
        return Collections.unmodifiableCollection(ledgers.values());
    }

    /** Revokes and forgets the ledgers of {@code topic}'s queues not in {@code mine}; returns them. */
    Map<QueueRef, L> revokeAllBut(String topic, Set<QueueRef> mine) {
        Map<QueueRef, L> revoked = new LinkedHashMap<>();
        ledgers.entrySet().removeIf(entry -> {
            if (!entry.getKey().topic().equals(topic) || mine.contains(entry.getKey())) {
                return false;
            }
            entry.getValue().revoke();
            revoked.put(entry.getKey(), entry.getValue());
            return true;
        });
        return revoked;
    }

    /**
     * Commits each ledger's committable offset that differs from the last one committed; a failure
     * is thrown after nothing is recorded, so the next commit sends the same offsets again.
     *
     * @return the offsets committed (empty: nothing to commit)
     */
    synchronized Map<QueueRef, Long> commit(OffsetSink sink) {
        Map<QueueRef, Long> offsets = new HashMap<>();
        ledgers.forEach((queue, ledger) -> {
            OptionalLong offset = ledger.committableOffset();
            if (offset.isPresent() && !Long.valueOf(offset.getAsLong()).equals(committed.get(queue))) {
                offsets.put(queue, offset.getAsLong());
            }
        });
        if (!offsets.isEmpty()) {
            sink.commit(offsets);
            committed.putAll(offsets);
        }
        return offsets;
    }
}
