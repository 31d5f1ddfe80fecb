package io.lanemq.console.health;

import java.util.Locale;

/**
 * The dial test's figures for one broker and probe kind, over the report's basis ({@link HealthReport#basis()}):
 * since the dial test started, or over a recent window.
 *
 * @param p99Seconds the 99th percentile of end-to-end probe latency from the histogram's buckets (the upper bound of
 *                   the bucket holding it), NaN when no probe was acked yet
 */
public record LaneFigures(String cluster, String broker, String kind, long sent, long lost, long duplicated, double p99Seconds) {
    public boolean healthy() {
        return lost == 0 && duplicated == 0;
    }

    public String p99() {
        return Double.isNaN(p99Seconds) ? "-" : Double.isInfinite(p99Seconds) ? "> max bucket"
                : String.format(Locale.ROOT, "%.0f ms", p99Seconds * 1000);
    }
}
