package io.lanemq.delay.server;

/**
 * What the broker's answer to a re-enqueue does to the old copy's offset. Only a copy stored as
 * the broker is configured to ({@code SEND_OK}) replaces the old one; a failure and a status below
 * that durability ({@code FLUSH_DISK_TIMEOUT}, {@code SLAVE_NOT_AVAILABLE}, ...: the copy may go with
 * the master's disk) keep the old offset held, and the record is re-enqueued again later. The
 * consumer proxy's sends to its retry and dead-letter topics make the same choice.
 */
final class Reenqueued {

    private Reenqueued() {
    }

    /**
     * @param stored  the send's answer: true stored as configured, false stored but not yet so; null if it failed
     * @return true when the old offset was let go
     */
    static boolean answered(SettlementBook book, QueueLedger ledger, QueueLedger.Held held, Boolean stored) {
        if (stored == null || !stored) {
            ledger.unclaim(held.offset()); // still held: committed only below it; claimable again for the next try
            return false;
        }
        book.leave(ledger, held.offset(), held.id());
        return true;
    }
}
