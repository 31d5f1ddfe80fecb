package io.lanemq.delay.server;

import io.lanemq.delay.DelayId;
import io.lanemq.rocketmq.QueueRef;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Writes a cluster's ledgers and the settlement book's ids awaiting their copy as a
 * {@link LedgerCheckpoint}. Each ledger is read in pages under its own lock, so a checkpoint
 * written while the server runs does not stop reading or settling for long; offsets read after a
 * ledger's header was taken are left out (they are at or above its next offset, which a restart
 * reads again).
 */
final class CheckpointWriter {

    private static final int PAGE = 65_536;

    /** What was written. */
    record Written(int queues, long heldOffsets, int awaiting, long bytes) {
    }

    private CheckpointWriter() {
    }

    /** What must be on the device before the checkpoint is: everything it refers to. */
    @FunctionalInterface
    interface BeforeCommit {
        void run() throws IOException;
    }

    /**
     * @param beforeCommit runs after the ledgers were read and before the checkpoint is forced and
     *                     renamed into place: the store's flush, so every record and mark the
     *                     checkpoint relies on survives a power loss that the checkpoint survives
     */
    static Written write(Path directory, String cluster, Collection<QueueLedger> ledgers, SettlementBook book,
            long nowMillis, BeforeCommit beforeCommit) throws IOException {
        int queues = 0;
        int awaiting = 0;
        try (LedgerCheckpoint.Writer w = LedgerCheckpoint.writer(directory, cluster, nowMillis)) {
            for (QueueLedger ledger : ledgers) {
                QueueLedger.Header h = ledger.header();
                if (h.committed() < 0 || h.next() < h.committed()) {
                    continue; // nothing committed yet: a restart reads this queue from the broker's offset anyway
                }
                w.beginQueue(ledger.queue, h.committed(), h.next(), h.readOffsets(), h.readMillis());
                long from = 0;
                for (List<QueueLedger.Held> page = ledger.held(from, PAGE); !page.isEmpty();
                        page = ledger.held(from, PAGE)) {
                    for (QueueLedger.Held held : page) {
                        if (held.offset() >= h.next()) {
                            break;
                        }
                        w.held(held.offset(), held.id().dueAtMillis(), held.id().nonce());
                    }
                    from = page.get(page.size() - 1).offset() + 1;
                    if (from >= h.next()) {
                        break;
                    }
                }
                w.endQueue();
                queues++;
            }
            for (Map.Entry<DelayId, QueueRef> e : book.awaitingSnapshot().entrySet()) {
                w.awaiting(e.getValue(), e.getKey());
                awaiting++;
            }
            beforeCommit.run();
            long bytes = w.commit();
            return new Written(queues, w.heldWritten(), awaiting, bytes);
        }
    }
}
