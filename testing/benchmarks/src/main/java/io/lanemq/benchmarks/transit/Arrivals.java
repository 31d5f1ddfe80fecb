package io.lanemq.benchmarks.transit;

import io.lanemq.benchmarks.report.Percentiles;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The messages of one measured phase as they arrive: each counted once (a redelivery is not a second arrival) and its
 * latency, send to listener, kept. Messages of an earlier phase or of the warm-up are ignored by their phase stamp.
 */
final class Arrivals {
    private final String phase;
    private final Set<Long> seen = ConcurrentHashMap.newKeySet();
    private long[] latencies = new long[1024];
    private int count;

    Arrivals(String phase) {
        this.phase = phase;
    }

    String phase() {
        return phase;
    }

    void arrived(String messagePhase, long sequence, long sentNanos) {
        long latency = System.nanoTime() - sentNanos;
        if (!phase.equals(messagePhase) || !seen.add(sequence)) {
            return;
        }
        synchronized (this) {
            if (count == latencies.length) {
                latencies = Arrays.copyOf(latencies, count * 2);
            }
            latencies[count++] = latency;
        }
    }

    int distinct() {
        return seen.size();
    }

    /** Latency at {@code quantile} in milliseconds over what arrived, nearest rank. */
    synchronized double millisAt(double quantile) {
        if (count == 0) {
            return Double.NaN;
        }
        long[] sorted = Arrays.copyOf(latencies, count);
        Arrays.sort(sorted);
        return Percentiles.nearestRank(sorted, quantile) / 1e6;
    }
}
