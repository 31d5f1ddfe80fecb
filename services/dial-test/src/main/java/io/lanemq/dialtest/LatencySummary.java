package io.lanemq.dialtest;

import org.HdrHistogram.Histogram;

/** Latency percentiles of one lane in microseconds, from an HdrHistogram; all zero when nothing was acked. */
public record LatencySummary(long count, long p50Micros, long p99Micros, long maxMicros) {

    public static final LatencySummary EMPTY = new LatencySummary(0, 0, 0, 0);

    static LatencySummary of(Histogram histogram) {
        if (histogram.getTotalCount() == 0) {
            return EMPTY;
        }
        return new LatencySummary(histogram.getTotalCount(), histogram.getValueAtPercentile(50),
            histogram.getValueAtPercentile(99), histogram.getMaxValue());
    }
}
