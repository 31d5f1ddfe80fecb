package io.lanemq.delay.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.delay.DelayId;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;

class QueueLedgerTest {

    private final QueueLedger ledger = new QueueLedger(new MessageQueue("LANEMQ_DELAY", "broker-a", 0));
    private final SettlementBook book = new SettlementBook();

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
    void neverMovesBackAndCommitsNothingBeforeTheFirstRead() {
        assertThat(ledger.toCommit()).isEqualTo(-1);
        ledger.read(5);
        assertThat(ledger.toCommit()).isEqualTo(6);
        hold(3, DelayId.random(1)); // a late copy below what was committed
        assertThat(ledger.toCommit()).isEqualTo(-1);
    }

    @Test
    void everyCopyOfAnIdIsReleasedWhenItSettles() {
        DelayId id = DelayId.random(1_000);
        hold(1, id);
        SettlementBook.Waiter copy = new SettlementBook.Waiter(ledger, 7);
        ledger.hold(7, id, 0);
        assertThat(book.joinIfPending(id, copy)).isTrue();
        book.settled(id);
        assertThat(ledger.heldCount()).isZero();
        assertThat(book.joinIfPending(id, copy)).isFalse(); // settled: a later copy goes through the engine again
    }

    @Test
    void overdueRecordsAreClaimedOnceUntilUnclaimed() {
        DelayId id = DelayId.random(1_000);
        ledger.hold(4, id, 100);
        ledger.hold(5, DelayId.random(1_000), 900);
        assertThat(ledger.claimOverdue(1_000, 500, 10)).extracting(h -> h.offset).containsExactly(4L);
        assertThat(ledger.claimOverdue(1_000, 500, 10)).isEmpty();
        QueueLedger.Held held = ledger.claimOverdue(2_000, 500, 10).get(0);
        assertThat(held.offset).isEqualTo(5);
    }

    @Test
    void aReenqueuedCopyLetsGoOfTheOldOffsetButTheIdStaysPending() {
        DelayId id = DelayId.random(1_000);
        SettlementBook.Waiter old = hold(2, id);
        book.leave(id, old);
        ledger.release(2);
        assertThat(ledger.toCommit()).isEqualTo(3);
        SettlementBook.Waiter copy = new SettlementBook.Waiter(ledger, 9);
        ledger.hold(9, id, 0);
        assertThat(book.joinIfPending(id, copy)).isTrue();
        book.settled(id);
        assertThat(ledger.toCommit()).isEqualTo(10);
    }

    private SettlementBook.Waiter hold(long offset, DelayId id) {
        SettlementBook.Waiter w = new SettlementBook.Waiter(ledger, offset);
        ledger.hold(offset, id, 0);
        book.await(id, w);
        return w;
    }
}
