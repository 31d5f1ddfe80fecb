package io.lanemq.failover;

import io.lanemq.support.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Weighted, health- and latency-aware choice among callees (clusters, brokers, endpoints).
 *
 * <p>Each pick draws a callee at random in proportion to {@code weight / (1 + inFlight)}.
 * Outcomes reported on the returned {@link Lease} move the weight: a failure multiplies it by
 * the failure factor (default: halves it) down to the callee's minimum, a success adds a
 * fraction of its maximum (default 1%), and a success whose smoothed latency is far above its
 * peers' counts as a failure (see {@link LatencyPolicy}). A callee with minimum 0 whose weight
 * falls below the down threshold is down: never picked, probed by the {@link HealthChecker}
 * every probe interval, and brought back at the recovery weight when a probe succeeds. A slow
 * callee, or a revived one until it is back at twice the recovery weight, gets a trickle of calls
 * counted in absolute terms (one at a time, one per {@linkplain Builder#trickleInterval trickle interval}) while a
 * healthier one can take the pick, not a share of the traffic; on that trickle each slow answer
 * cuts its weight again, so it earns its share back only by answering well.
 *
 * <pre>{@code
 * WeightedFailover<String> failover = WeightedFailover.<String>builder()
 *         .name("order-paid")
 *         .callee("idc-a", WeightSpec.of(100).withMinWeight(1))
 *         .callee("idc-b", WeightSpec.of(100).withMinWeight(1))
 *         .latency(LatencyPolicy.ofDefaults())
 *         .build();
 *
 * Optional<Lease<String>> lease = failover.pick();
 * if (lease.isPresent()) {
 *     long start = System.nanoTime();
 *     boolean ok = send(lease.get().callee());
 *     if (ok) {
 *         lease.get().onSuccessNanos(System.nanoTime() - start);
 *     } else {
 *         lease.get().onFailure();
 *     }
 * }
 * }</pre>
 *
 * <p>Thread-safety: all methods may be called from any thread. {@link #pick} takes no lock and
 * allocates only the lease; lease completion updates the callee with compare-and-set.
 * {@link #update} swaps a whole new membership at once. Lifecycle: {@link #close()} stops
 * probing (and the probe thread, if this instance started one); picking keeps working.
 *
 * @param <T> the callee type; used as a map key, so it needs sound {@code equals}/{@code hashCode}
 */
public final class WeightedFailover<T> implements AutoCloseable {

    private final String name;
    private final WeightRules rules;
    private final double priorityFactor;
    private final LatencyJudge<T> latency;
    private final Prober<T> prober;
    private final Trickle<T> trickle;
    private volatile Membership<T> membership;

    private WeightedFailover(Builder<T> builder) {
        this.name = builder.name;
        this.rules = new WeightRules(builder.failureFactor, builder.successIncrementRatio,
                builder.downThresholdRatio, builder.recoveryRatio);
        this.priorityFactor = builder.priorityFactor;
        this.membership = Membership.empty();
        this.latency = builder.latency.isEnabled()
                ? new LatencyJudge<>(builder.latency, builder.ticker, this::membership)
                : null;
        this.trickle = new Trickle<>(builder.ticker, builder.trickleInterval.toNanos());
        this.prober = new Prober<>(name, builder.healthChecker, builder.probeInterval.toNanos(),
                builder.ticker, this::membership, builder.probeExecutor);
        update(builder.callees);
    }

    /** Starts a builder with the defaults listed on each setter. */
    public static <T> Builder<T> builder() {
        return new Builder<>();
    }

    /** Picks a callee, or returns empty when none is available. */
    public Optional<Lease<T>> pick() {
        return pick(Set.of());
    }

    /**
     * Picks a callee not in {@code exclude} (the ones a retry already tried), or returns empty
     * when none is available.
     */
    public Optional<Lease<T>> pick(Set<T> exclude) {
        Membership<T> members = membership;
        Callee<T> callee = members.select(exclude, priorityFactor, trickle);
        if (callee != null && !trickle.claim(callee)) {
            // Another pick took its trial between the look and the claim: choose among the others.
            Set<T> without = new HashSet<>(exclude);
            without.add(callee.value);
            callee = members.select(without, priorityFactor, trickle);
            if (callee != null && !trickle.claim(callee)) {
                callee = null;
            }
        }
        if (callee == null) {
            // Only limited callees are left to pick from: a trickle would starve the caller, so they take it.
            callee = members.select(exclude, priorityFactor, null);
        }
        if (callee == null) {
            return Optional.empty();
        }
        callee.acquire();
        return Optional.of(new CalleeLease<>(this, callee));
    }

    /**
     * Replaces the set of callees and their configured weights. Callees that stay keep what was
     * learned: their weight keeps its fraction of the (possibly new) maximum, a down callee stays
     * down until probed, the latency average and in-flight count carry over. New callees start
     * at their initial weight; removed ones are forgotten (leases still out on them complete
     * harmlessly).
     */
    public synchronized void update(Map<T, WeightSpec> callees) {
        Objects.requireNonNull(callees, "callees");
        Membership<T> current = membership;
        List<Callee<T>> next = new ArrayList<>(callees.size());
        for (Map.Entry<T, WeightSpec> entry : callees.entrySet()) {
            T value = Objects.requireNonNull(entry.getKey(), "callee");
            WeightSpec spec = Objects.requireNonNull(entry.getValue(), () -> "weight spec of " + value);
            Callee<T> existing = current.get(value);
            if (existing != null) {
                existing.reconfigure(spec, rules);
                next.add(existing);
            } else {
                next.add(Callee.create(value, spec, rules));
            }
        }
        membership = new Membership<>(next);
    }

    /**
     * Takes {@code callee} out of rotation at once, even above its minimum weight, until a probe
     * brings it back; for when the caller knows it is gone (connection closed, broker
     * deregistered). Returns false if it is unknown or already down.
     */
    public boolean markDown(T callee) {
        Callee<T> state = membership.get(callee);
        if (state == null || !state.markDown()) {
            return false;
        }
        prober.wentDown(state, "markDown");
        return true;
    }

    /**
     * Probes, on the calling thread, every down callee whose probe interval has passed, and
     * returns how many came back. The scheduled prober calls this too; tests call it after
     * advancing their ticker.
     */
    public int checkNow() {
        return prober.checkNow();
    }

    /** A snapshot of every callee, lowest priority group first, for metrics and diagnostics. */
    public List<CalleeStats<T>> stats() {
        Callee<T>[] callees = membership.callees();
        List<CalleeStats<T>> stats = new ArrayList<>(callees.length);
        for (Callee<T> callee : callees) {
            stats.add(callee.stats());
        }
        return stats;
    }

    /** The name given to the builder; it appears in log lines and the probe thread's name. */
    public String name() {
        return name;
    }

    /** Stops probing; picks and lease outcomes keep working. */
    @Override
    public void close() {
        prober.close();
    }

    @Override
    public String toString() {
        return "WeightedFailover[" + name + ", " + List.of(membership.callees()) + "]";
    }

    Membership<T> membership() {
        return membership;
    }

    void succeeded(Callee<T> callee, long latencyNanos) {
        callee.release();
        // Read before the sample: a limited callee is on probation, and one slow answer sets it back.
        boolean probation = callee.isLimited();
        if (latency != null && (latency.recordSuccess(callee, latencyNanos) || probation && latency.isSlowAnswer(latencyNanos))) {
            callee.penaliseSlow();
        } else {
            callee.recordSuccess();
        }
    }

    void failed(Callee<T> callee) {
        callee.release();
        if (callee.recordFailure()) {
            prober.wentDown(callee, "failures");
        }
    }

    /**
     * Builds a {@link WeightedFailover}. Each setter rejects a bad value at once with a message
     * naming the setting; {@link #build()} returns a ready instance.
     */
    public static final class Builder<T> {
        private final Map<T, WeightSpec> callees = new LinkedHashMap<>();
        private String name = "failover";
        private double failureFactor = WeightRules.DEFAULTS.failureFactor();
        private double successIncrementRatio = WeightRules.DEFAULTS.successIncrementRatio();
        private double downThresholdRatio = WeightRules.DEFAULTS.downThresholdRatio();
        private double recoveryRatio = WeightRules.DEFAULTS.recoveryRatio();
        private double priorityFactor = 1.4;
        private LatencyPolicy latency = LatencyPolicy.ofDefaults();
        private HealthChecker<? super T> healthChecker = HealthChecker.alwaysHealthy();
        private Duration probeInterval = Duration.ofSeconds(1);
        private Duration trickleInterval = Duration.ofMillis(200);
        private ScheduledExecutorService probeExecutor;
        private Ticker ticker = Ticker.system();

        private Builder() {
        }

        /** Names this failover in logs and in its probe thread; default "failover". */
        public Builder<T> name(String name) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("name must not be blank, got '" + name + "'");
            }
            this.name = name;
            return this;
        }

        /** Adds a callee; adding the same one twice is rejected. */
        public Builder<T> callee(T callee, WeightSpec spec) {
            Objects.requireNonNull(callee, "callee");
            Objects.requireNonNull(spec, () -> "weight spec of " + callee);
            if (callees.putIfAbsent(callee, spec) != null) {
                throw new IllegalArgumentException("callee " + callee + " was already added");
            }
            return this;
        }

        /** Adds a callee with {@link WeightSpec#of(double) WeightSpec.of(maxWeight)}. */
        public Builder<T> callee(T callee, double maxWeight) {
            return callee(callee, WeightSpec.of(maxWeight));
        }

        /** Adds every entry as by {@link #callee(Object, WeightSpec)}. */
        public Builder<T> callees(Map<? extends T, WeightSpec> callees) {
            callees.forEach(this::callee);
            return this;
        }

        /** What a failure multiplies the weight by, in [0, 1); default 0.5. */
        public Builder<T> failureFactor(double failureFactor) {
            this.failureFactor = within("failureFactor", failureFactor, 0, true, 1, false);
            return this;
        }

        /** The fraction of max weight a success adds back, in (0, 1]; default 0.01. */
        public Builder<T> successIncrementRatio(double successIncrementRatio) {
            this.successIncrementRatio = within("successIncrementRatio", successIncrementRatio, 0, false, 1, true);
            return this;
        }

        /**
         * Below this fraction of max weight a failure drops the callee to its minimum (down, when
         * that is 0), in (0, 1); default 0.01. It also floors latency penalties.
         */
        public Builder<T> downThresholdRatio(double downThresholdRatio) {
            this.downThresholdRatio = within("downThresholdRatio", downThresholdRatio, 0, false, 1, false);
            return this;
        }

        /** The fraction of max weight a successful probe restores, in (0, 1]; default 0.1. */
        public Builder<T> recoveryRatio(double recoveryRatio) {
            this.recoveryRatio = within("recoveryRatio", recoveryRatio, 0, false, 1, true);
            return this;
        }

        /**
         * How eagerly a priority group keeps its traffic: it takes {@code health * factor} of the
         * picks (capped at all), health being its current over its maximum weight; default 1.4,
         * so a group keeps everything until it has lost about 30% of its weight. Use
         * {@link Double#MAX_VALUE} for strict priority.
         */
        public Builder<T> priorityFactor(double priorityFactor) {
            if (!(priorityFactor > 0) || Double.isInfinite(priorityFactor)) {
                throw new IllegalArgumentException("priorityFactor must be finite and > 0, got " + priorityFactor);
            }
            this.priorityFactor = priorityFactor;
            return this;
        }

        /** Latency awareness; default {@link LatencyPolicy#ofDefaults()}. */
        public Builder<T> latency(LatencyPolicy latency) {
            this.latency = Objects.requireNonNull(latency, "latency");
            return this;
        }

        /** Probes down callees; default {@link HealthChecker#alwaysHealthy()}. */
        public Builder<T> healthChecker(HealthChecker<? super T> healthChecker) {
            this.healthChecker = Objects.requireNonNull(healthChecker, "healthChecker");
            return this;
        }

        /** How long a down callee waits between probes; default 1 s. */
        public Builder<T> probeInterval(Duration probeInterval) {
            Objects.requireNonNull(probeInterval, "probeInterval");
            if (probeInterval.isZero() || probeInterval.isNegative()) {
                throw new IllegalArgumentException("probeInterval must be > 0, got " + probeInterval);
            }
            this.probeInterval = probeInterval;
            return this;
        }

        /**
         * How often a limited callee may be picked while a healthier one can take the pick: one call at a time, at
         * most one per interval, whatever the rate of picks; default 200 ms (at most 5 calls a second). Limited
         * means judged slow (see {@link LatencyPolicy}), or revived by a probe and not yet back at twice the recovery
         * weight: those calls are likely to hold their callers, so they are counted in absolute
         * terms, not as a share of the traffic, and the callee earns its share back by answering well. When only
         * limited callees are left to pick from, they take every pick.
         */
        public Builder<T> trickleInterval(Duration trickleInterval) {
            Objects.requireNonNull(trickleInterval, "trickleInterval");
            if (trickleInterval.isZero() || trickleInterval.isNegative()) {
                throw new IllegalArgumentException("trickleInterval must be > 0, got " + trickleInterval);
            }
            this.trickleInterval = trickleInterval;
            return this;
        }

        /**
         * Runs probes on {@code executor}, which the caller owns and shuts down. Without it the
         * failover starts one daemon thread on first need and stops it on close.
         */
        public Builder<T> probeExecutor(ScheduledExecutorService executor) {
            this.probeExecutor = Objects.requireNonNull(executor, "probeExecutor");
            return this;
        }

        /** The clock for latency averages and probe waits; default {@link Ticker#system()}. */
        public Builder<T> ticker(Ticker ticker) {
            this.ticker = Objects.requireNonNull(ticker, "ticker");
            return this;
        }

        /** Returns a ready failover; rejects settings that only conflict with each other. */
        public WeightedFailover<T> build() {
            if (recoveryRatio < downThresholdRatio) {
                throw new IllegalArgumentException("recoveryRatio (" + recoveryRatio
                        + ") must be >= downThresholdRatio (" + downThresholdRatio
                        + "), or a revived callee would sit below the down threshold");
            }
            return new WeightedFailover<>(this);
        }

        private static double within(String name, double value, double low, boolean lowInclusive,
                double high, boolean highInclusive) {
            boolean aboveLow = lowInclusive ? value >= low : value > low;
            boolean belowHigh = highInclusive ? value <= high : value < high;
            if (!aboveLow || !belowHigh) {
                throw new IllegalArgumentException(name + " must be within " + (lowInclusive ? "[" : "(")
                        + low + ", " + high + (highInclusive ? "]" : ")") + ", got " + value);
            }
            return value;
        }
    }
}
