package io.lanemq.delay.server;

import io.lanemq.delay.DelayEngine;
import io.lanemq.delay.DelayId;
import io.lanemq.delay.DelayStoreException;
import io.lanemq.delay.RecordState;
import io.lanemq.rocketmq.QueueRef;
import io.lanemq.support.Ticker;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Rebuilds queue ledgers from a {@link LedgerCheckpoint} and checks them against the engine, so a
 * restarted server holds its offsets again without re-reading the internal topic.
 *
 * <p>Every held offset is put back first, then the engine's store is walked once
 * ({@link DelayEngine#forEachRecord}): an id still pending stays held, one delivered or cancelled
 * (after a periodic checkpoint) is released at once, and an id the store does not know means the
 * checkpoint was not written for this store: that queue's ledger is dropped and the queue is read
 * again from the broker's committed offset, as without a checkpoint. Holding before asking is what
 * makes a settlement racing the walk harmless: it either finds the offset held and releases it
 * through the settlement listener, or happened before the walk, which then sees it settled.
 *
 * <p>Offsets below the broker's committed offset are not restored: the group is past them already.
 */
final class CheckpointRestore {

    /** A checkpointed queue and the offset the broker has committed for it now. */
    record Candidate(LedgerCheckpoint.Section section, long brokerCommitted) {
    }

    /**
     * What became of one queue: restored (a registered ledger; read on from {@code seekTo}, the
     * checkpoint's next offset) or discarded ({@code ledger} null; read again from {@code seekTo},
     * the broker's committed offset).
     */
    record Outcome(QueueRef queue, QueueLedger ledger, long restored, long releasedAtOnce, long unknown,
            long seekTo) {
    }

    /** Every queue's outcome, how many stored ids the walk visited, and how long holding and walking took. */
    record Result(List<Outcome> outcomes, long visited, long holdMillis, long walkMillis) {
    }

    private CheckpointRestore() {
    }

    static Result restore(LedgerCheckpoint.Loaded checkpoint, List<Candidate> candidates, SettlementBook book,
            DelayEngine engine, Ticker ticker) throws IOException, DelayStoreException {
        List<QueueLedger> ledgers = new ArrayList<>();
        Set<DelayId> awaitingUnseen = new HashSet<>();
        long[] restored = new long[candidates.size()];
        long began = ticker.read();
        try {
            // Once for all queues: growing the table queue by queue would re-insert everything held so far each time.
            book.reserve(candidates.stream().mapToLong(c -> c.section().heldCount()).sum());
            for (int i = 0; i < candidates.size(); i++) {
                LedgerCheckpoint.Section s = candidates.get(i).section();
                long committed = candidates.get(i).brokerCommitted();
                QueueLedger ledger = book.register(new QueueLedger(s.queue()));
                ledgers.add(ledger);
                ledger.restoreHeader(committed, s.nextRead(), s.readOffsets(), s.readMillis());
                checkpoint.readHeld(s, (offset, due, nonce) -> {
                    if (offset >= committed) {
                        book.restore(ledger, offset, due, nonce);
                    }
                });
                restored[i] = ledger.heldCount();
                for (DelayId id : checkpoint.awaiting(s.queue())) {
                    book.restoreAwaiting(id, ledger);
                    awaitingUnseen.add(id);
                }
            }
            long held = ticker.read();
            long visited = engine.forEachRecord((due, nonce, state) -> {
                book.verify(due, nonce, state != RecordState.PENDING);
                if (!awaitingUnseen.isEmpty()) {
                    awaitingUnseen.remove(new DelayId(due, nonce));
                }
            });
            awaitingUnseen.forEach(book::forgetAwaiting); // unknown here: nothing to wait for
            List<Outcome> outcomes = new ArrayList<>();
            for (int i = 0; i < candidates.size(); i++) {
                LedgerCheckpoint.Section s = candidates.get(i).section();
                QueueLedger ledger = ledgers.get(i);
                long unknown = ledger.endVerification();
                long released = restored[i] - ledger.heldCount();
                if (unknown > 0) {
                    book.drop(ledger);
                    outcomes.add(new Outcome(s.queue(), null, restored[i], released, unknown,
                            candidates.get(i).brokerCommitted()));
                } else {
                    outcomes.add(new Outcome(s.queue(), ledger, restored[i], released, 0, s.nextRead()));
                }
            }
            return new Result(outcomes, visited, (held - began) / 1_000_000, (ticker.read() - held) / 1_000_000);
        } catch (IOException | DelayStoreException | RuntimeException e) {
            ledgers.forEach(book::drop);
            throw e;
        }
    }
}
