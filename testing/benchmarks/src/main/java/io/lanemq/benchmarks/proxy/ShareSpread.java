package io.lanemq.benchmarks.proxy;

import java.util.Arrays;

/** How evenly deliveries spread over consumers: the farthest any consumer is from the mean, as a fraction of it. */
record ShareSpread(long min, long max, double mean, double worstDeviation) {
    static ShareSpread of(long[] counts) {
        double mean = Arrays.stream(counts).average().orElse(0);
        long min = Arrays.stream(counts).min().orElse(0);
        long max = Arrays.stream(counts).max().orElse(0);
        double worst = mean == 0 ? 0 : Math.max(mean - min, max - mean) / mean;
        return new ShareSpread(min, max, mean, worst);
    }
}
