package io.lanemq.dialtest;

import java.time.Duration;

/**
 * The stress ramp: start at one probe rate, raise it by a step after each step's duration, and stop at the first
 * step with loss, send failures or a p99 latency over the limit, or after the maximum rate. Rates are probes per
 * second per broker and per kind. Immutable; the builder checks each setting when it is given, naming it.
 *
 * <pre>{@code
 * StressOptions stress = StressOptions.builder().startRate(100).step(100).maxRate(2000)
 *     .stepDuration(Duration.ofSeconds(30)).p99Limit(Duration.ofMillis(500)).build();
 * }</pre>
 */
public final class StressOptions {

    private final double startRate;
    private final double step;
    private final double maxRate;
    private final Duration stepDuration;
    private final Duration p99Limit;

    private StressOptions(Builder b) {
        this.startRate = b.startRate;
        this.step = b.step;
        this.maxRate = b.maxRate;
        this.stepDuration = b.stepDuration;
        this.p99Limit = b.p99Limit;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The first step's rate (default 10). */
    public double startRate() {
        return startRate;
    }

    /** How much each step adds to the rate (default 10). */
    public double step() {
        return step;
    }

    /** The last step's rate at most (default 1000). */
    public double maxRate() {
        return maxRate;
    }

    /** How long each step probes; also the reconciliation period, so each step is reconciled on its own. */
    public Duration stepDuration() {
        return stepDuration;
    }

    /** A step whose worst lane's p99 latency is over this is where latency broke (default 1 s). */
    public Duration p99Limit() {
        return p99Limit;
    }

    /** The rate of step {@code index} (0-based), capped at the maximum. */
    double rateOfStep(int index) {
        return Math.min(maxRate, startRate + index * step);
    }

    @Override
    public String toString() {
        return "StressOptions[startRate=" + startRate + ", step=" + step + ", maxRate=" + maxRate + ", stepDuration="
            + stepDuration + ", p99Limit=" + p99Limit + "]";
    }

    /** Builder of {@link StressOptions}; not thread-safe. */
    public static final class Builder {
        private double startRate = 10;
        private double step = 10;
        private double maxRate = 1000;
        private Duration stepDuration = Duration.ofSeconds(30);
        private Duration p99Limit = Duration.ofSeconds(1);

        private Builder() {
        }

        public Builder startRate(double rate) {
            this.startRate = rate("stressStart", rate);
            return this;
        }

        public Builder step(double step) {
            this.step = rate("stressStep", step);
            return this;
        }

        public Builder maxRate(double rate) {
            this.maxRate = rate("stressMax", rate);
            return this;
        }

        public Builder stepDuration(Duration duration) {
            this.stepDuration = DialTestOptions.Builder.between("stressStepDuration", duration, Duration.ofSeconds(1), Duration.ofHours(1));
            return this;
        }

        public Builder p99Limit(Duration limit) {
            this.p99Limit = DialTestOptions.Builder.between("stressP99Limit", limit, Duration.ofMillis(1), Duration.ofMinutes(10));
            return this;
        }

        /** Checks the settings together and returns the configuration. */
        public StressOptions build() {
            if (maxRate < startRate) {
                throw new IllegalArgumentException("stressMax (" + maxRate + ") must not be below stressStart ("
                    + startRate + ")");
            }
            return new StressOptions(this);
        }

        private static double rate(String name, double rate) {
            if (!(rate > 0 && rate <= DialTestOptions.MAX_RATE)) {
                throw new IllegalArgumentException(name + " must be in (0, " + (long) DialTestOptions.MAX_RATE
                    + "] probes/s per broker and kind: " + rate);
            }
            return rate;
        }
    }
}
