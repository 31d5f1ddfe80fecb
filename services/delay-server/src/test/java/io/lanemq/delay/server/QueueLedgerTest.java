package io.lanemq.delay.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.delay.DelayId;
import io.lanemq.rocketmq.QueueRef;
import org.junit.jupiter.api.Test;

class QueueLedgerTest {

    private final SettlementBook book = new SettlementBook();
    /** Read times to the millisecond, so the tests can tell 100 ms from 900 ms apart. */
    private final QueueLedger ledger = book.register(new QueueLedger(new QueueRef("LANEMQ_DELAY", "broker-a", 0), 1));

    @Test
    void commitsBelowTheLowestRecordNotYetSettled() {
        DelayId first = DelayId.random(1_000);
        DelayId second = DelayId.random(2_000);
        hold(10, first);
        ledger.read(11); // a cancel: safe at once
        hold(12, second);
        assertThat(ledger.toCommit()).isEqualTo(10);

        book.settled(second);
        assertThat(ledger.toCommit()).isEqualTo(-1); // 10 still holds
        book.settled(first);
        assertThat(ledger.toCommit()).isEqualTo(13);
        assertThat(ledger.heldCount()).isZero();
    }

    @Test
    void asTheReadersLedgerItOffersEachNewOffsetOnceAndNothingOnceRevokedWhileItsHeldRecordsStayForTheHandOver() {
        DelayId id = DelayId.random(1_000);
        hold(10, id);
        assertThat(ledger.committableOffset()).hasValue(10);
        assertThat(ledger.committableOffset()).as("10 was handed to the reader already").isEmpty();

        ledger.revoke();
        ledger.read(11);
        assertThat(ledger.committableOffset()).as("the new owner reads on from what was committed").isEmpty();
        assertThat(ledger.held(0, 10)).as("the hand-over relinquishes what is still held")
                .containsExactly(new QueueLedger.Held(10, id));
    }

    @Test
    void neverMovesBackAndCommitsNothingBeforeTheFirstRead() {
        assertThat(ledger.toCommit()).isEqualTo(-1);
        ledger.read(5);
        assertThat(ledger.toCommit()).isEqualTo(6);
        hold(3, DelayId.random(1)); // a late copy below what was committed
        assertThat(ledger.toCommit()).isEqualTo(-1);
        assertThat(ledger.heldCount()).isOne();
    }

    @Test
    void everyCopyOfAnIdIsReleasedWhenItSettles() {
        DelayId id = DelayId.random(1_000);
        assertThat(hold(1, id)).isFalse(); // new here: to be scheduled
        assertThat(hold(7, id)).isTrue(); // a second copy joins the first
        book.settled(id);
        assertThat(ledger.heldCount()).isZero();
        assertThat(book.size()).isZero();
        assertThat(hold(9, id)).isFalse(); // settled: a later copy goes through the engine again
    }

    @Test
    void anOffsetReadTwiceIsHeldOnce() {
        DelayId id = DelayId.random(1_000);
        hold(4, id);
        assertThat(hold(4, id)).isTrue();
        assertThat(book.size()).isOne();
        book.settled(id);
        assertThat(ledger.toCommit()).isEqualTo(5);
    }

    @Test
    void overdueRecordsAreClaimedOnceUntilUnclaimed() {
        book.hold(ledger, 4, DelayId.random(1_000), 100);
        book.hold(ledger, 5, DelayId.random(1_000), 900);
        assertThat(ledger.claimOverdue(1_000, 500, 10)).extracting(QueueLedger.Held::offset).containsExactly(4L);
        assertThat(ledger.claimOverdue(1_000, 500, 10)).isEmpty();
        assertThat(ledger.claimOverdue(2_000, 500, 10)).extracting(QueueLedger.Held::offset).containsExactly(5L);
        ledger.unclaim(4);
        assertThat(ledger.claimOverdue(2_000, 500, 10)).extracting(QueueLedger.Held::offset).containsExactly(4L);
    }

    @Test
    void claimsGoOldestFirstUpToTheLimitAcrossChunks() {
        for (int i = 0; i < 3 * QueueLedger.CHUNK; i++) {
            book.hold(ledger, i, DelayId.random(10_000 + i), i);
        }
        // offset i was read at i ms: at 2,500 ms those read up to 1,500 ms are a second old
        var claimed = ledger.claimOverdue(2_500, 1_000, 1_000);
        assertThat(claimed).hasSize(1_000);
        assertThat(claimed.get(0).offset()).isZero();
        assertThat(claimed.get(999).offset()).isEqualTo(999);
        assertThat(claimed.get(999).id().dueAtMillis()).isEqualTo(10_999);
        assertThat(ledger.claimOverdue(2_500, 1_000, 10_000)).extracting(QueueLedger.Held::offset)
                .startsWith(1_000L).endsWith(1_500L).hasSize(501);
    }

    @Test
    void aReenqueuedCopyLetsGoOfTheOldOffsetButTheIdStaysPending() {
        DelayId id = DelayId.random(1_000);
        hold(2, id);
        book.leave(ledger, 2, id);
        assertThat(ledger.toCommit()).isEqualTo(3);
        assertThat(book.awaitingCopies()).isOne();
        assertThat(hold(9, id)).isTrue(); // the copy joins: no second write to the store
        assertThat(book.awaitingCopies()).isZero();
        book.settled(id);
        assertThat(ledger.toCommit()).isEqualTo(10);
    }

    @Test
    void aCopyReadBeforeTheReenqueueIsAcknowledgedKeepsTheIdHeld() {
        DelayId id = DelayId.random(1_000);
        hold(2, id);
        assertThat(hold(8, id)).isTrue();
        book.leave(ledger, 2, id);
        assertThat(book.awaitingCopies()).isZero();
        assertThat(ledger.toCommit()).isEqualTo(8);
        book.settled(id);
        assertThat(ledger.toCommit()).isEqualTo(9);
    }

    @Test
    void heldRecordsArePagedInOffsetOrderForHandover() {
        for (int i = 0; i < 2_500; i++) {
            book.hold(ledger, 100 + 2L * i, DelayId.random(i), 0);
        }
        var page = ledger.held(0, 1_000);
        assertThat(page).hasSize(1_000);
        assertThat(page.get(0).offset()).isEqualTo(100);
        var next = ledger.held(page.get(999).offset() + 1, 10_000);
        assertThat(next).hasSize(1_500);
        assertThat(next.get(0).offset()).isEqualTo(page.get(999).offset() + 2);
    }

    @Test
    void chunksAreDroppedOnceReleasedAndPassed() {
        long empty = ledger.estimatedBytes();
        DelayId[] ids = new DelayId[10 * QueueLedger.CHUNK];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = DelayId.random(i);
            hold(i, ids[i]);
        }
        assertThat(ledger.estimatedBytes()).isGreaterThan(10 * 16L * QueueLedger.CHUNK);
        for (DelayId id : ids) {
            book.settled(id);
        }
        ledger.toCommit();
        assertThat(ledger.estimatedBytes()).isLessThan(empty + 20 * QueueLedger.CHUNK);
    }

    private boolean hold(long offset, DelayId id) {
        return book.hold(ledger, offset, id, 0);
    }
}
