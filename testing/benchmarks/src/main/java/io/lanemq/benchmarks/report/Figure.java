package io.lanemq.benchmarks.report;

import io.lanemq.benchmarks.cpu.CpuMeter;
import java.util.Objects;

/**
 * One measured figure of a benchmark run, as a row of the report: what was measured, the baseline measured in the same
 * run (if the figure has one) and their ratio, the target from DESIGN.md's table ({@link Targets}), the CPU it cost
 * per message (where messages flowed), and whether the target was met. Immutable; build one with {@link #of}.
 *
 * <pre>{@code
 * Figure p1 = Figure.of("P1", "SDK sync send vs raw DefaultMQProducer, 8 threads, 300 B")
 *         .measured(12_918, "msgs/s").baseline(12_032).target(Targets.P1_SDK_VS_RAW_SYNC)
 *         .cpu(sdkCpu, sdkMessages).note("raw 0.21 CPU-ms/msg").build();
 * }</pre>
 *
 * @param measured        the figure itself, in {@code unit}; NaN on an {@link Outcome#ERROR} row
 * @param baseline        what the same run measured for the thing compared against, in {@code unit}; null if none
 * @param ratio           {@code measured / baseline}; null without a baseline
 * @param target          null for a figure only reported (no target in the table)
 * @param cpuMsPerMessage CPU milliseconds per message of every JVM of the run (this one and the stack's child
 *                        processes), from the operating system; null where no messages flowed
 * @param note            what a reader needs beside the numbers (the error's message on an error row); never null
 */
public record Figure(String id, String name, double measured, String unit, Double baseline, Double ratio, Target target,
                     Double cpuMsPerMessage, Outcome outcome, String note) {

    /** Whether the figure met its target. */
    public enum Outcome {
        PASS("pass"), MISS("miss"), REPORTED("-"), ERROR("error");

        private final String label;

        Outcome(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    public Figure {
        requireText(id, "id");
        requireText(name, "name");
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(note, "note");
    }

    public static Builder of(String id, String name) {
        return new Builder(id, name);
    }

    /** The row of a benchmark that crashed: its id and name, the error's message, no numbers. */
    public static Figure error(String id, String name, Throwable error) {
        String message = error.getMessage() == null ? error.getClass().getName() : error.getClass().getSimpleName() + ": " + error.getMessage();
        return new Figure(id, name, Double.NaN, "", null, null, null, null, Outcome.ERROR, message.replaceAll("\\s+", " "));
    }

    /** The number the target judges: the ratio or the measured value; NaN when there is none. */
    public double judged() {
        return judged(target, measured, ratio);
    }

    private static double judged(Target target, double measured, Double ratio) {
        if (target == null) {
            return Double.NaN;
        }
        if (target.subject() == Target.Subject.RATIO) {
            return ratio == null ? Double.NaN : ratio;
        }
        return measured;
    }

    private static void requireText(String value, String what) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(what + " must not be blank");
        }
    }

    /** Collects a figure's parts; {@link #build()} computes the ratio and the outcome. */
    public static final class Builder {
        private final String id;
        private final String name;
        private double measured = Double.NaN;
        private String unit = "";
        private Double baseline;
        private Target target;
        private Double cpuMsPerMessage;
        private String note = "";
        private String unmetRequirement;
        private String noVerdict;

        private Builder(String id, String name) {
            this.id = id;
            this.name = name;
        }

        public Builder measured(double value, String unit) {
            this.measured = value;
            this.unit = Objects.requireNonNull(unit, "unit");
            return this;
        }

        /** What the same run measured for the thing compared against, in the measured value's unit. */
        public Builder baseline(double value) {
            this.baseline = value;
            return this;
        }

        public Builder target(Target target) {
            this.target = target;
            return this;
        }

        /** CPU milliseconds per message; not set (null) where no messages flowed. */
        public Builder cpuMsPerMessage(double millis) {
            this.cpuMsPerMessage = millis;
            return this;
        }

        /** CPU per message over a stretch where {@code messages} messages flowed; nothing when none did. */
        public Builder cpu(CpuMeter.Usage usage, long messages) {
            if (messages > 0) {
                this.cpuMsPerMessage = usage.cpuNanos() / 1e6 / messages;
            }
            return this;
        }

        public Builder note(String note) {
            this.note = Objects.requireNonNull(note, "note");
            return this;
        }

        /**
         * A condition besides the target the figure only counts with (every message delivered, no change lost): when
         * it does not hold, the figure is a miss whatever its number, and {@code whatFailed} is added to its note.
         */
        public Builder require(boolean holds, String whatFailed) {
            if (!holds && unmetRequirement == null) {
                unmetRequirement = whatFailed;
            }
            return this;
        }

        /**
         * Shows the target beside the figure but passes no verdict on it: the figure was measured on a smaller
         * workload than the one the target is stated for ({@code why} says which), so neither pass nor miss would mean
         * what it says. An unmet {@link #require requirement} still makes it a miss.
         */
        public Builder withoutVerdict(String why) {
            this.noVerdict = Objects.requireNonNull(why, "why");
            return this;
        }

        public Figure build() {
            Double ratio = baseline == null || baseline == 0 ? null : measured / baseline;
            Outcome outcome;
            if (target == null || noVerdict != null) {
                outcome = unmetRequirement == null ? Outcome.REPORTED : Outcome.MISS;
            } else {
                outcome = target.isMetBy(judged(target, measured, ratio)) && unmetRequirement == null ? Outcome.PASS : Outcome.MISS;
            }
            String fullNote = noVerdict == null ? note : (note.isEmpty() ? "no verdict: " + noVerdict : "no verdict: " + noVerdict + "; " + note);
            fullNote = unmetRequirement == null ? fullNote : (fullNote.isEmpty() ? unmetRequirement : unmetRequirement + "; " + fullNote);
            return new Figure(id, name, measured, unit, baseline, ratio, target, cpuMsPerMessage, outcome, fullNote);
        }
    }
}
