package io.lanemq.benchmarks.report;

import java.util.Objects;

/**
 * What a figure must reach: a comparison with a threshold, applied either to the ratio against the baseline measured
 * in the same run ({@code ratio >= 0.95}) or to the measured value itself ({@code <= 3000 ms}). Immutable.
 *
 * <pre>{@code
 * Target p1 = Target.ratioAtLeast(0.95);
 * Target p6 = Target.atMost(1000, "ms");
 * }</pre>
 */
public record Target(Subject subject, Comparison comparison, double threshold, String unit) {

    /** Which number of a figure the target judges. */
    public enum Subject { RATIO, MEASURED }

    public enum Comparison {
        AT_LEAST(">="), AT_MOST("<=");

        private final String symbol;

        Comparison(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }
    }

    /**
     * How far past a met target the chart draws a figure: a ratio 20x its threshold (a failover library against
     * its anchor) would flatten every other bar.
     */
    static final double ATTAINMENT_CAP = 3.0;

    public Target {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(comparison, "comparison");
        Objects.requireNonNull(unit, "unit");
        if (!Double.isFinite(threshold) || threshold < 0) {
            throw new IllegalArgumentException("threshold must be a finite number >= 0, was " + threshold);
        }
    }

    public static Target ratioAtLeast(double threshold) {
        return new Target(Subject.RATIO, Comparison.AT_LEAST, threshold, "");
    }

    public static Target ratioAtMost(double threshold) {
        return new Target(Subject.RATIO, Comparison.AT_MOST, threshold, "");
    }

    public static Target atLeast(double threshold, String unit) {
        return new Target(Subject.MEASURED, Comparison.AT_LEAST, threshold, unit);
    }

    public static Target atMost(double threshold, String unit) {
        return new Target(Subject.MEASURED, Comparison.AT_MOST, threshold, unit);
    }

    /** Whether {@code value} (the ratio or the measured value, per {@link #subject()}) meets this target. */
    public boolean isMetBy(double value) {
        if (Double.isNaN(value)) {
            return false;
        }
        return comparison == Comparison.AT_LEAST ? value >= threshold : value <= threshold;
    }

    /**
     * The value as a multiple of what the target asks, turned so that 1 is the threshold and more is better for
     * either comparison: {@code value / threshold} for "at least", {@code threshold / value} for "at most", capped at
     * {@value #ATTAINMENT_CAP}. A missed target is below 1, a met one at 1 or above, so one chart shows every figure
     * against one line.
     */
    public double attainment(double value) {
        if (Double.isNaN(value)) {
            return 0;
        }
        double better = comparison == Comparison.AT_LEAST ? value : threshold;
        double worse = comparison == Comparison.AT_LEAST ? threshold : value;
        if (worse <= 0) {
            // "at most 0" met by 0, or "at least 0": exactly on the line; the cap when strictly better.
            return better > 0 ? ATTAINMENT_CAP : (isMetBy(value) ? 1 : 0);
        }
        return Math.min(ATTAINMENT_CAP, Math.max(0, better / worse));
    }

    /** {@code ratio >= 0.95}, {@code <= 3000 ms}. */
    @Override
    public String toString() {
        String number = Numbers.exact(threshold);
        return subject == Subject.RATIO
                ? "ratio " + comparison.symbol() + " " + number
                : comparison.symbol() + " " + number + (unit.isEmpty() ? "" : " " + unit);
    }
}
