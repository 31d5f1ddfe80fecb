package io.lanemq.dialtest;

/**
 * Counts of one lane, cumulative or for one period.
 *
 * @param dropped probes the sender never sent because it fell more than a second behind its rate
 */
public record LaneCounts(long sent, long sendFailures, long acked, long lost, long duplicated, long late, long dropped) {

    public static final LaneCounts ZERO = new LaneCounts(0, 0, 0, 0, 0, 0, 0);

    /** This minus {@code earlier}: the counts of the period between two snapshots. */
    public LaneCounts minus(LaneCounts earlier) {
        return new LaneCounts(sent - earlier.sent, sendFailures - earlier.sendFailures, acked - earlier.acked,
            lost - earlier.lost, duplicated - earlier.duplicated, late - earlier.late, dropped - earlier.dropped);
    }

    public LaneCounts plus(LaneCounts other) {
        return new LaneCounts(sent + other.sent, sendFailures + other.sendFailures, acked + other.acked,
            lost + other.lost, duplicated + other.duplicated, late + other.late, dropped + other.dropped);
    }

    /** Sends the sender issued: accepted by the broker or failed. */
    public long attempted() {
        return sent + sendFailures;
    }
}
