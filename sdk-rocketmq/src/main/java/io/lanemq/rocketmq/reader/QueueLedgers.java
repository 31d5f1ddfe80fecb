package io.lanemq.rocketmq.reader;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * The ledgers of the queues a reader holds, and the two steps it takes on them: commit what they
 * allow, and revoke those of queues a rebalance took away. Apart from the consumer so the steps are
 * tested without a broker. Thread-safe.
 */
final class QueueLedgers<L extends OffsetLedger> {

    /** Where commits go: the lite pull consumer's offset store, or a fake in tests. */
    @FunctionalInterface
    interface OffsetSink {
        void commit(Map<MessageQueue, Long> offsets);
    }

    private final Map<MessageQueue, L> ledgers = new ConcurrentHashMap<>();
    private final Function<MessageQueue, L> factory;
    /** The last offset committed per queue, so an unchanged one is not sent again. Guarded by {@code this}. */
    private final Map<MessageQueue, Long> committed = new HashMap<>();

    QueueLedgers(Function<MessageQueue, L> factory) {
        this.factory = factory;
    }

    L ledger(MessageQueue queue) {
        return ledgers.computeIfAbsent(queue, factory);
    }

    L find(MessageQueue queue) {
        return ledgers.get(queue);
    }

    void adopt(MessageQueue queue, L ledger) {
        ledgers.put(queue, ledger);
    }

    boolean forget(MessageQueue queue, L ledger) {
        return ledgers.remove(queue, ledger);
    }

    Collection<L> all() {
        return Collections.unmodifiableCollection(ledgers.values());
    }

    /** Revokes and forgets the ledgers of {@code topic}'s queues not in {@code mine}; returns them. */
    Map<MessageQueue, L> revokeAllBut(String topic, Set<MessageQueue> mine) {
        Map<MessageQueue, L> revoked = new LinkedHashMap<>();
        ledgers.entrySet().removeIf(entry -> {
            if (!entry.getKey().getTopic().equals(topic) || mine.contains(entry.getKey())) {
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
    synchronized Map<MessageQueue, Long> commit(OffsetSink sink) {
        Map<MessageQueue, Long> offsets = new HashMap<>();
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
