package io.lanemq.failover;

import java.time.Duration;
import java.util.Objects;

/**
 * When a callee counts as slow: its smoothed success latency (an exponentially weighted moving
 * average over time) is at least {@code slowRatio} times <em>and</em> at least
 * {@code slowMargin} above the baseline of its peers. Immutable; settings are validated as they
 * are set.
 *
 * <p>Both conditions are needed: the ratio alone would punish a 2 ms callee next to a 0.5 ms
 * one, the margin alone would not scale from local to cross-region peers. Every success of a
 * slow callee cuts its weight like a failure (down to a small floor, never to zero, so a trickle
 * of traffic keeps measuring it); once its average falls back below half the margin above the
 * baseline (hysteresis, so an average hovering at the line does not flap), successes rebuild the
 * weight as usual; while its weight is still low (on a trickle of calls, see
 * {@link WeightedFailover.Builder#trickleInterval}) a single answer that slow cuts it again.
 *
 * <p>The average decays by time, not by sample count. Samples are summed per callee and
 * folded in once per {@code refreshInterval}: the mean of a batch arriving {@code dt} after the
 * previous batch keeps {@code 2^(-dt/halfLife)} of the old average. A callee starved of traffic
 * therefore re-learns its latency from its next few samples, a busy one is not swung by a
 * single outlier, and judging is at most one refresh interval behind.
 *
 * <pre>{@code
 * LatencyPolicy policy = LatencyPolicy.custom()
 *         .halfLife(Duration.ofSeconds(1))
 *         .slowRatio(2.0)
 *         .slowMargin(Duration.ofMillis(20))
 *         .baseline(LatencyPolicy.Baseline.BEST)
 *         .build();
 * }</pre>
 */
public final class LatencyPolicy {

    /** Which peer average a callee is compared with. */
    public enum Baseline {
        /** The lowest average among the callees: right for a handful of callees, such as two IDCs. */
        BEST,
        /** The lower median: robust when many callees make the best one an outlier. */
        MEDIAN
    }

    private static final LatencyPolicy DISABLED = new LatencyPolicy(false, new Builder());
    private static final LatencyPolicy DEFAULTS = new Builder().build();

    private final boolean enabled;
    private final Duration halfLife;
    private final double slowRatio;
    private final Duration slowMargin;
    private final Baseline baseline;
    private final Duration refreshInterval;

    private LatencyPolicy(boolean enabled, Builder builder) {
        this.enabled = enabled;
        this.halfLife = builder.halfLife;
        this.slowRatio = builder.slowRatio;
        this.slowMargin = builder.slowMargin;
        this.baseline = builder.baseline;
        this.refreshInterval = builder.refreshInterval;
    }

    /** Half-life 1 s, ratio 2.0, margin 20 ms, baseline {@link Baseline#BEST}, refresh 100 ms. */
    public static LatencyPolicy ofDefaults() {
        return DEFAULTS;
    }

    /** No latency tracking: only failures cut weight, and successes read no clock. */
    public static LatencyPolicy disabled() {
        return DISABLED;
    }

    /** Starts from the defaults. */
    public static Builder custom() {
        return new Builder();
    }

    /** Starts from {@code base}'s settings (enabled again if {@code base} was disabled). */
    public static Builder from(LatencyPolicy base) {
        Builder builder = new Builder();
        builder.halfLife = base.halfLife;
        builder.slowRatio = base.slowRatio;
        builder.slowMargin = base.slowMargin;
        builder.baseline = base.baseline;
        builder.refreshInterval = base.refreshInterval;
        return builder;
    }

    public boolean isEnabled() {
        return enabled;
    }

    public Duration halfLife() {
        return halfLife;
    }

    public double slowRatio() {
        return slowRatio;
    }

    public Duration slowMargin() {
        return slowMargin;
    }

    public Baseline baseline() {
        return baseline;
    }

    /** How often the peers' baseline is recomputed; between refreshes successes reuse it. */
    public Duration refreshInterval() {
        return refreshInterval;
    }

    @Override
    public String toString() {
        if (!enabled) {
            return "LatencyPolicy[disabled]";
        }
        return "LatencyPolicy[halfLife=" + halfLife + ", slowRatio=" + slowRatio + ", slowMargin="
                + slowMargin + ", baseline=" + baseline + ", refreshInterval=" + refreshInterval + "]";
    }

    /** Builds a {@link LatencyPolicy}; each setter rejects a bad value at once, naming it. */
    public static final class Builder {
        private Duration halfLife = Duration.ofSeconds(1);
        private double slowRatio = 2.0;
        private Duration slowMargin = Duration.ofMillis(20);
        private Baseline baseline = Baseline.BEST;
        private Duration refreshInterval = Duration.ofMillis(100);

        private Builder() {
        }

        /** How fast the average forgets: after one half-life an old value weighs half. */
        public Builder halfLife(Duration halfLife) {
            this.halfLife = positive("halfLife", halfLife);
            return this;
        }

        /** How many times the baseline a callee's average must reach to be slow; >= 1. */
        public Builder slowRatio(double slowRatio) {
            if (!(slowRatio >= 1.0) || Double.isInfinite(slowRatio)) {
                throw new IllegalArgumentException("slowRatio must be finite and >= 1.0, got " + slowRatio);
            }
            this.slowRatio = slowRatio;
            return this;
        }

        /** How far above the baseline a callee's average must also be to be slow; >= 0. */
        public Builder slowMargin(Duration slowMargin) {
            Objects.requireNonNull(slowMargin, "slowMargin");
            if (slowMargin.isNegative()) {
                throw new IllegalArgumentException("slowMargin must be >= 0, got " + slowMargin);
            }
            this.slowMargin = slowMargin;
            return this;
        }

        public Builder baseline(Baseline baseline) {
            this.baseline = Objects.requireNonNull(baseline, "baseline");
            return this;
        }

        /** How often the peers' baseline is recomputed (an O(callees) scan). */
        public Builder refreshInterval(Duration refreshInterval) {
            this.refreshInterval = positive("refreshInterval", refreshInterval);
            return this;
        }

        public LatencyPolicy build() {
            return new LatencyPolicy(true, this);
        }

        private static Duration positive(String name, Duration value) {
            Objects.requireNonNull(value, name);
            if (value.isZero() || value.isNegative()) {
                throw new IllegalArgumentException(name + " must be > 0, got " + value);
            }
            return value;
        }
    }
}
