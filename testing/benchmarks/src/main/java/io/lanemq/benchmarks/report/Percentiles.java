package io.lanemq.benchmarks.report;

/**
 * Percentiles by nearest rank: the smallest sample with at least that share of the samples at or below it. Below
 * 100 samples the p99 is the maximum, so a p99 of a handful of samples never hides the worst one.
 */
public final class Percentiles {

    private Percentiles() {
    }

    /**
     * The {@code quantile} (0 < quantile <= 1) of {@code sorted}, ascending: the sample of rank ceil(quantile x n).
     *
     * @throws IllegalArgumentException when there is no sample or the quantile is outside (0, 1]
     */
    public static long nearestRank(long[] sorted, double quantile) {
        if (sorted.length == 0) {
            throw new IllegalArgumentException("no samples");
        }
        if (!(quantile > 0 && quantile <= 1)) {
            throw new IllegalArgumentException("quantile must be in (0, 1], was " + quantile);
        }
        // The small slack keeps 0.99 x 200 (198.00000000000003 in doubles) at rank 198.
        int rank = (int) Math.ceil(quantile * sorted.length - 1e-9);
        return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
    }
}
