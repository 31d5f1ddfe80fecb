package io.lanemq.dialtest;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

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
 * @param weights      the send weights in force for the probed logic topic, by cluster in route order, when the
 *                     reconciliation was made; empty when no logic topic is probed
 */
public record Report(long epochMillis, Duration span, List<LaneReport> lanes, long pending, long rejectedAcks,
                     Map<String, Integer> weights) {

    public Report {
        lanes = List.copyOf(lanes);
        weights = Collections.unmodifiableMap(new LinkedHashMap<>(weights));
    }

    /** A report without a logic topic probed. */
    public Report(long epochMillis, Duration span, List<LaneReport> lanes, long pending, long rejectedAcks) {
        this(epochMillis, span, lanes, pending, rejectedAcks, Map.of());
    }

    /**
     * The share of the logic-topic probes each cluster stored over the span (sent there over all sent), by cluster in
     * the order of {@link #weights()} and then any other; empty when none was sent.
     */
    public Map<String, Double> logicTopicSplit() {
        Map<String, Long> sent = new LinkedHashMap<>();
        weights.keySet().forEach(cluster -> sent.put(cluster, 0L));
        lanes.stream().filter(l -> l.key().kind() == ProbeKind.LOGIC_TOPIC && l.counts().sent() > 0)
            .forEach(l -> sent.merge(l.key().cluster(), l.counts().sent(), Long::sum));
        long total = sent.values().stream().mapToLong(Long::longValue).sum();
        Map<String, Double> split = new LinkedHashMap<>();
        if (total > 0) {
            sent.forEach((cluster, n) -> split.put(cluster, n / (double) total));
        }
        return split;
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
