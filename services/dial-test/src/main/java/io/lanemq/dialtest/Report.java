package io.lanemq.dialtest;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What one reconciliation found, or the totals of a run.
 *
 * @param epochMillis  when it was made
 * @param span         the period it covers (the reconciliation period, or the whole run)
 * @param lanes        one row per cluster, broker and kind, sorted
 * @param pending      tracked probes still awaiting an ack, not yet due to be declared lost
 * @param rejectedAcks ack-channel input dropped during the span
 */
public record Report(long epochMillis, Duration span, List<LaneReport> lanes, long pending, long rejectedAcks) {

    public Report {
        lanes = List.copyOf(lanes);
    }

    /** The counts of all lanes added up. */
    public LaneCounts total() {
        return lanes.stream().map(LaneReport::counts).reduce(LaneCounts.ZERO, LaneCounts::plus);
    }

    public Optional<LaneReport> lane(String cluster, String broker, ProbeKind kind) {
        LaneKey key = new LaneKey(cluster, broker, kind);
        return lanes.stream().filter(l -> l.key().equals(key)).findFirst();
    }
}
