package io.lanemq.dialtest;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;

/**
 * The terminal view: one table per reconciliation period and one for the whole run. Latency is in milliseconds,
 * from the due time (for delayed probes: how late the timer delivered).
 */
public final class LiveTable {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());
    private static final String STRESS_ROW = "%4s %8s %8s %8s %8s %6s %6s %8s %9s %9s  %s%n";
    private static final String ROW = "%-12s %-21s %-18s %8s %8s %6s %5s %6s %7s %9s %9s %9s%n";

    private LiveTable() {
    }

    /** The table of one period. */
    public static String period(Report report, double samplingRatio) {
        return render("period ending " + TIME.format(Instant.ofEpochMilli(report.epochMillis())) + " ("
            + seconds(report) + " s, tracking " + percent(samplingRatio) + " of probes)", report);
    }

    /** The table of the whole run, with a verdict line. */
    public static String summary(Report totals, double samplingRatio) {
        LaneCounts t = totals.total();
        String verdict = t.lost() > 0 ? "LOSS" : t.sent() == 0 ? "NOTHING SENT" : "OK";
        return render("summary of the run (" + seconds(totals) + " s, tracking " + percent(samplingRatio)
            + " of probes)", totals)
            + String.format(Locale.ROOT, "%s: sent %d, acked %d, lost %d, duplicated %d, send failures %d, late acks %d, "
                + "dropped (sender behind its rate) %d%n", verdict, t.sent(), t.acked(), t.lost(), t.duplicated(),
                t.sendFailures(), t.late(), t.dropped());
    }

    /**
     * The steps of a stress ramp, then one line naming the highest clean rate and what broke first, e.g.
     * {@code STRESS: highest clean rate 400/s per broker per kind; at 600/s p99 1,240 ms > 500 ms}.
     */
    public static String stress(StressRamp ramp) {
        StringBuilder out = new StringBuilder("stress ramp, one reconciliation per step (latency: the worst lane)\n");
        out.append(String.format(Locale.ROOT, STRESS_ROW, "step", "rate/s", "sent/s", "sent", "acked", "lost", "fail",
            "dropped", "p50 ms", "p99 ms", "verdict"));
        int index = 1;
        for (StressStep step : ramp.steps()) {
            LaneCounts c = step.counts();
            out.append(String.format(Locale.ROOT, STRESS_ROW, index++, rate(step.rate()), achieved(step.achieved()), c.sent(),
                c.acked(), c.lost(), c.sendFailures(), c.dropped(), StressRamp.millis(step.p50Micros()),
                StressRamp.millis(step.p99Micros()),
                step.clean() ? "clean" : String.join(", ", step.breaches())));
        }
        String clean = ramp.highestClean().map(s -> "highest clean rate " + achieved(s.achieved())
                + "/s per broker per kind achieved (" + rate(s.rate()) + "/s asked)")
            .orElse("no clean rate");
        String broke = ramp.breaking().map(s -> "at " + rate(s.rate()) + "/s " + String.join(", ", s.breaches()))
            .orElse(ramp.finished() ? "nothing broke up to the maximum, " + rate(ramp.config().maxRate()) + "/s"
                : "the ramp was stopped before anything broke (maximum " + rate(ramp.config().maxRate()) + "/s)");
        return out.append("STRESS: ").append(clean).append("; ").append(broke).append('\n').toString();
    }

    /** A measured rate: whole probes per second, one decimal below 10. */
    static String achieved(double perSecond) {
        return perSecond < 10 ? String.format(Locale.ROOT, "%.1f", perSecond) : String.format(Locale.ROOT, "%,.0f", perSecond);
    }

    /** {@code 400}, or {@code 12.5} for a fractional rate. */
    static String rate(double perSecond) {
        return perSecond == Math.rint(perSecond) ? Long.toString((long) perSecond)
            : String.format(Locale.ROOT, "%.2f", perSecond).replaceAll("0+$", "");
    }

    private static String render(String title, Report report) {
        StringBuilder out = new StringBuilder();
        out.append(title).append('\n');
        out.append(String.format(Locale.ROOT, ROW, "cluster", "broker", "kind", "sent", "acked", "lost", "dup", "fail",
            "dropped", "p50 ms", "p99 ms", "max ms"));
        for (LaneReport lane : report.lanes()) {
            LaneCounts c = lane.counts();
            LatencySummary l = lane.latency();
            out.append(String.format(Locale.ROOT, ROW, lane.key().cluster(), lane.key().broker(),
                lane.key().kind().label(), c.sent(), c.acked(), c.lost(), c.duplicated(), c.sendFailures(), c.dropped(),
                millis(l, l.p50Micros()), millis(l, l.p99Micros()), millis(l, l.maxMicros())));
        }
        out.append(String.format(Locale.ROOT, "pending %d, rejected ack frames %d%n", report.pending(),
            report.rejectedAcks()));
        split(report).ifPresent(out::append);
        return out.toString();
    }

    /**
     * The logic-topic probes' split beside the weights in force, e.g.
     * {@code logic topic split: cluster-a 50.3% (weight 50%), cluster-b 49.7% (weight 50%)}.
     */
    static Optional<String> split(Report report) {
        Map<String, Double> split = report.logicTopicSplit();
        if (report.weights().isEmpty() && split.isEmpty()) {
            return Optional.empty();
        }
        int total = report.weights().values().stream().mapToInt(Integer::intValue).sum();
        Set<String> clusters = new LinkedHashSet<>(report.weights().keySet());
        clusters.addAll(split.keySet());
        StringJoiner parts = new StringJoiner(", ", "logic topic split (probes stored): ", "\n");
        for (String cluster : clusters) {
            Integer weight = report.weights().get(cluster);
            parts.add(String.format(Locale.ROOT, "%s %s (weight %s)", cluster,
                split.isEmpty() ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * split.getOrDefault(cluster, 0.0)),
                weight == null || total == 0 ? "none" : String.format(Locale.ROOT, "%.0f%%", 100.0 * weight / total)));
        }
        return Optional.of(parts.toString());
    }

    private static String millis(LatencySummary latency, long micros) {
        return latency.count() == 0 ? "-" : String.format(Locale.ROOT, "%.1f", micros / 1000.0);
    }

    private static String seconds(Report report) {
        return String.format(Locale.ROOT, "%.1f", report.span().toMillis() / 1000.0);
    }

    private static String percent(double ratio) {
        return String.format(Locale.ROOT, "%.4g%%", ratio * 100);
    }
}
