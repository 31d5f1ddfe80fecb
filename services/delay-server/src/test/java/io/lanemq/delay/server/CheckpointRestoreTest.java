package io.lanemq.delay.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.delay.CancelResult;
import io.lanemq.delay.DelayEngine;
import io.lanemq.delay.DelayId;
import io.lanemq.delay.DelayedRecord;
import io.lanemq.rocketmq.QueueRef;
import io.lanemq.support.Ticker;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ledgers written as a checkpoint and rebuilt against a real engine behave like the originals. */
class CheckpointRestoreTest {

    private static final QueueRef QUEUE = new QueueRef("LANEMQ_DELAY", "broker-a", 3);
    private static final long HOUR = 3_600_000;

    @TempDir
    Path dir;
    private final AtomicReference<SettlementBook> books = new AtomicReference<>(new SettlementBook());
    private DelayEngine engine;
    private final long now = System.currentTimeMillis();

    @BeforeEach
    void openEngine() throws Exception {
        engine = DelayEngine.builder().directory(dir.resolve("store")).name("restore-test")
                .sink(record -> CompletableFuture.completedFuture(null))
                .settlementListener(id -> books.get().settled(id))
                .build();
    }

    @AfterEach
    void closeEngine() {
        engine.close();
    }

    @Test
    void aRebuiltLedgerCommitsReleasesAndReenqueuesLikeTheOriginal() throws Exception {
        SettlementBook before = books.get();
        QueueLedger original = before.register(new QueueLedger(QUEUE));
        DelayId a = stored(1);
        DelayId b = stored(2);
        DelayId c = stored(3);
        DelayId d = stored(4);
        DelayId e = stored(5);
        before.hold(original, 10, a, 1_000);
        before.hold(original, 11, b, 2_500);
        before.hold(original, 12, c, 4_000);
        before.hold(original, 13, d, 4_000);
        before.hold(original, 14, e, 4_000);
        before.leave(original, 14, e); // re-enqueued and acknowledged, copy not read back yet
        original.read(15); // a cancel
        assertThat(original.toCommit()).isEqualTo(10);
        CheckpointWriter.Written written = CheckpointWriter.write(dir, "cluster-a", List.of(original), before, now, () -> { });
        assertThat(written).isEqualTo(new CheckpointWriter.Written(1, 4, 1, written.bytes()));

        assertThat(engine.cancel(d)).isEqualTo(CancelResult.CANCELLED); // settled after the checkpoint

        SettlementBook book = new SettlementBook(); // the restarted server's
        books.set(book);
        CheckpointRestore.Outcome o = restoreOne(book, 10);
        QueueLedger ledger = o.ledger();
        assertThat(ledger).isNotNull();
        assertThat(o.seekTo()).isEqualTo(16);
        assertThat(o.restored()).isEqualTo(4);
        assertThat(o.releasedAtOnce()).isEqualTo(1); // d
        assertThat(ledger.heldCount()).isEqualTo(3);
        assertThat(book.size()).isEqualTo(3);
        assertThat(book.awaitingCopies()).isOne();

        assertThat(ledger.toCommit()).as("the broker has 10 already").isEqualTo(-1);
        engine.cancel(a);
        assertThat(ledger.toCommit()).isEqualTo(11);

        // Re-enqueue goes oldest first on the restored read times, exactly as on the original.
        assertThat(ledger.claimOverdue(5_000, 2_000, 10)).extracting(QueueLedger.Held::offset).containsExactly(11L);
        assertThat(original.claimOverdue(5_000, 2_000, 10)).extracting(QueueLedger.Held::offset)
                .containsExactly(10L, 11L);
        assertThat(ledger.claimOverdue(7_000, 2_000, 10)).extracting(QueueLedger.Held::offset).containsExactly(12L);

        assertThat(book.hold(ledger, 20, e, 8_000)).as("e's copy joins: no second write").isTrue();
        assertThat(book.awaitingCopies()).isZero();
        assertThat(book.hold(ledger, 21, DelayId.random(now), 8_000)).as("a new id goes to the engine").isFalse();

        engine.cancel(b);
        engine.cancel(c);
        engine.cancel(e);
        assertThat(ledger.heldCount()).isOne(); // offset 21
        assertThat(ledger.toCommit()).isEqualTo(21);
    }

    @Test
    void anIdTheStoreDoesNotKnowDiscardsTheQueue() throws Exception {
        SettlementBook before = books.get();
        QueueLedger original = before.register(new QueueLedger(QUEUE));
        before.hold(original, 5, stored(1), 0);
        before.hold(original, 6, DelayId.random(now + HOUR), 0); // never stored here: another store's checkpoint
        original.toCommit();
        CheckpointWriter.write(dir, "cluster-a", List.of(original), before, now, () -> { });

        SettlementBook book = new SettlementBook();
        books.set(book);
        CheckpointRestore.Outcome o = restoreOne(book, 5);
        assertThat(o.ledger()).isNull();
        assertThat(o.unknown()).isOne();
        assertThat(o.seekTo()).as("read again from the committed offset").isEqualTo(5);
        assertThat(book.size()).isZero();
    }

    @Test
    void offsetsBelowTheBrokersCommittedOffsetAreNotHeldAgain() throws Exception {
        SettlementBook before = books.get();
        QueueLedger original = before.register(new QueueLedger(QUEUE));
        before.hold(original, 5, stored(1), 0);
        before.hold(original, 9, stored(2), 0);
        original.toCommit();
        CheckpointWriter.write(dir, "cluster-a", List.of(original), before, now, () -> { });

        SettlementBook book = new SettlementBook();
        books.set(book);
        CheckpointRestore.Outcome o = restoreOne(book, 7); // the group moved past 5 meanwhile
        assertThat(o.restored()).isOne();
        assertThat(o.ledger().held(0, 10)).extracting(QueueLedger.Held::offset).containsExactly(9L);
        assertThat(o.seekTo()).isEqualTo(10);
    }

    private CheckpointRestore.Outcome restoreOne(SettlementBook book, long brokerCommitted) throws Exception {
        try (LedgerCheckpoint.Loaded loaded = LedgerCheckpoint.open(dir, "cluster-a")) {
            LedgerCheckpoint.Section section = loaded.take(QUEUE);
            CheckpointRestore.Result result = CheckpointRestore.restore(loaded,
                    List.of(new CheckpointRestore.Candidate(section, brokerCommitted)), book, engine, Ticker.system());
            assertThat(result.visited()).isEqualTo(engine.recoveryReport().pending() + storedHere);
            assertThat(result.outcomes()).hasSize(1);
            return result.outcomes().get(0);
        }
    }

    private int storedHere;

    private DelayId stored(int hours) throws Exception {
        DelayedRecord r = DelayedRecord.builder().dueAt(now + hours * HOUR).target("orders", "cluster-a")
                .body(new byte[] {1}).build();
        engine.schedule(r);
        storedHere++;
        return r.id();
    }
}
