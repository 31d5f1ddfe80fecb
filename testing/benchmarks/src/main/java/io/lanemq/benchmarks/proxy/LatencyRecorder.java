package io.lanemq.benchmarks.proxy;

import io.lanemq.benchmarks.report.Percentiles;
import java.util.Arrays;

/** End-to-end latencies in nanoseconds, recorded from many listener threads; percentiles on demand. */
final class LatencyRecorder {
    private long[] samples = new long[1024];
    private int size;

    synchronized void record(long nanos) {
        if (size == samples.length) {
            samples = Arrays.copyOf(samples, size * 2);
        }
        samples[size++] = nanos;
    }

    synchronized int count() {
        return size;
    }

    /** The {@code quantile} (0..1) in milliseconds, nearest rank; -1 with no sample. */
    synchronized double percentileMillis(double quantile) {
        if (size == 0) {
            return -1;
        }
        long[] sorted = Arrays.copyOf(samples, size);
        Arrays.sort(sorted);
        return Percentiles.nearestRank(sorted, quantile) / 1e6;
    }
}
