package io.lanemq.delay.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.delay.DelayId;
import io.lanemq.rocketmq.QueueRef;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReenqueuedTest {

    private final SettlementBook book = new SettlementBook();
    private final QueueLedger ledger = book.register(new QueueLedger(new QueueRef("LANEMQ_DELAY", "broker-a", 0)));
    private final DelayId id = new DelayId(1_900_000_000_000L, 7);

    /** Offset 10 held for a record read at time 0, then claimed for re-enqueue as overdue. */
    private QueueLedger.Held overdue() {
        book.hold(ledger, 10, id, 0);
        ledger.read(11);
        List<QueueLedger.Held> claimed = ledger.claimOverdue(1_000, 500, 10);
        assertThat(claimed).extracting(QueueLedger.Held::offset).containsExactly(10L);
        return claimed.get(0);
    }

    @Test
    void aCopyStoredBelowTheConfiguredDurabilityKeepsTheOldOffsetHeldAndClaimableAgain() {
        QueueLedger.Held held = overdue();

        assertThat(Reenqueued.answered(book, ledger, held, false)).isFalse(); // e.g. FLUSH_DISK_TIMEOUT

        assertThat(ledger.isHeld(10)).as("the old copy still holds its offset").isTrue();
        assertThat(ledger.toCommit()).as("nothing committed past it").isEqualTo(10);
        assertThat(ledger.claimOverdue(2_000, 500, 10)).as("re-enqueued again on the next round")
                .extracting(QueueLedger.Held::offset).containsExactly(10L);
    }

    @Test
    void aFailedSendKeepsTheOldOffsetAsANonOkStatusDoes() {
        QueueLedger.Held held = overdue();

        assertThat(Reenqueued.answered(book, ledger, held, null)).isFalse();

        assertThat(ledger.isHeld(10)).isTrue();
        assertThat(ledger.toCommit()).isEqualTo(10);
    }

    @Test
    void onlySendOkLetsTheOldOffsetGo() {
        QueueLedger.Held held = overdue();

        assertThat(Reenqueued.answered(book, ledger, held, true)).isTrue();

        assertThat(ledger.isHeld(10)).isFalse();
        assertThat(ledger.toCommit()).as("committed past the old copy, up to one past the last read").isEqualTo(12);
    }
}
