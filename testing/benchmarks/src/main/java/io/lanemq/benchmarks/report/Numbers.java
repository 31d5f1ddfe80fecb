package io.lanemq.benchmarks.report;

import java.math.BigDecimal;
import java.util.Locale;

/** How the report writes a number for people: about three significant digits, thousands grouped. */
final class Numbers {
    private Numbers() {
    }

    static String format(double value) {
        if (Double.isNaN(value)) {
            return "-";
        }
        double magnitude = Math.abs(value);
        String pattern;
        if (magnitude == 0) {
            return "0";
        } else if (magnitude >= 100) {
            pattern = "%,.0f";
        } else if (magnitude >= 10) {
            pattern = "%.1f";
        } else if (magnitude >= 1) {
            pattern = "%.2f";
        } else if (magnitude >= 0.001) {
            pattern = "%.3f";
        } else {
            pattern = "%.2e";
        }
        return String.format(Locale.ROOT, pattern, value);
    }

    /** A threshold as written in the targets table: no trailing zeros, thousands grouped ({@code 0.95}, {@code 3,000}). */
    static String exact(double value) {
        if (value == Math.rint(value) && Math.abs(value) >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    /** A nullable number: "-" when absent. */
    static String format(Double value) {
        return value == null ? "-" : format(value.doubleValue());
    }
}
