package io.lanemq.delay;

/** What {@link DelayEngine#schedule} did with a record. */
public enum ScheduleOutcome {
    /**
     * Stored and pending; {@link SettlementListener} fires for its id once it is delivered or
     * cancelled. (If its bucket was not loaded yet and the id turns out to be stored already, the
     * copy is dropped at load and counted in {@link DelayEngine#duplicatesSkipped()}; the listener
     * still fires for the id.)
     */
    STORED,
    /** The id is already stored and still pending: nothing written; the listener fires when it settles. */
    DUPLICATE_PENDING,
    /** The id is already stored and delivered or cancelled: nothing written, nothing more will happen. */
    DUPLICATE_SETTLED
}
