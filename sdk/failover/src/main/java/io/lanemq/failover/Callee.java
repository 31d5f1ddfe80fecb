package io.lanemq.failover;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.LongAdder;

/**
 * The learned health of one callee: its weight, in-flight count and latency average, updated
 * lock-free by compare-and-set so that picks never block.
 *
 * <p>Why not resilience4j's {@code CircuitBreaker} as this state: a breaker answers a yes/no
 * question (closed, open, half-open) from a sliding window of outcomes, while the product here
 * is a continuous share of traffic. Two clusters must keep trading share smoothly (halve on
 * failure, regain 1% per success), a slow callee is judged against its peers rather than an
 * absolute slow-call threshold, and in-flight calls dilute the share. Wrapping a breaker would
 * leave all of that to write anyway, add its per-call window bookkeeping to the hot path, and
 * add a dependency to a module that needs none; so the weight model is hand-written.
 *
 * <p>Weight invariants: 0 (down, or configured off with max 0) or within [min, max]. Successes
 * do not revive a down callee, because a late success may belong to a call made before the
 * failure; only a probe does ({@link #revive()}).
 */
final class Callee<T> {

    private static final VarHandle WEIGHT;
    private static final VarHandle IN_FLIGHT;
    private static final VarHandle LAST_TRIAL;
    /** {@link #lastTrialNanos} before the first trial. */
    private static final long NEVER = Long.MIN_VALUE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            WEIGHT = lookup.findVarHandle(Callee.class, "weight", double.class);
            IN_FLIGHT = lookup.findVarHandle(Callee.class, "inFlight", int.class);
            LAST_TRIAL = lookup.findVarHandle(Callee.class, "lastTrialNanos", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final T value;
    private volatile WeightRules.Limits limits;
    private volatile double weight;
    private volatile int inFlight;
    // Latency samples go to striped adders so that concurrent successes do not contend on one
    // field; the average itself is written only when the judge folds them in.
    private final LongAdder latencySum = new LongAdder();
    private final LongAdder latencyCount = new LongAdder();
    private volatile double ewmaNanos = Double.NaN;
    /** When the last fold that had samples ran. */
    private volatile long lastSampleNanos;
    private volatile long firstSampleNanos;
    private volatile boolean slow;
    /** When it went down, or when a probe last failed; the next probe waits an interval from it. */
    private volatile long downSinceNanos;
    /** Set by a probe's revival, cleared once successes bring the weight back to the trickle weight. */
    private volatile boolean revived;
    /** When it was last picked while {@link #isLimited() limited}; see {@link #claimTrial}. */
    private volatile long lastTrialNanos = NEVER;

    private Callee(T value, WeightRules.Limits limits, double initialWeight) {
        this.value = value;
        this.limits = limits;
        this.weight = initialWeight;
    }

    static <T> Callee<T> create(T value, WeightSpec spec, WeightRules rules) {
        return new Callee<>(value, rules.limitsFor(spec), spec.initialWeight());
    }

    double weight() {
        return weight;
    }

    int inFlight() {
        return inFlight;
    }

    WeightRules.Limits limits() {
        return limits;
    }

    int priority() {
        return limits.priority();
    }

    boolean isDown() {
        return weight <= 0 && limits.max() > 0;
    }

    boolean isSlow() {
        return slow;
    }

    void setSlow(boolean slow) {
        if (this.slow != slow) {
            this.slow = slow;
        }
    }

    /**
     * Whether it may take only a trickle of calls while a healthier peer is available: it is judged slow, or a
     * probe revived it and it has not yet earned the trickle weight back. Failures alone do not limit it: a cluster
     * that refused a few sends at once answers those fast, and its share rebuilds as before.
     */
    boolean isLimited() {
        return slow || revived && weight > 0;
    }

    /** Whether a limited callee could take a call now: none of its calls in flight, and the interval passed. */
    boolean mayTakeTrial(long nowNanos, long intervalNanos) {
        long last = lastTrialNanos;
        return inFlight == 0 && (last == NEVER || nowNanos - last >= intervalNanos);
    }

    /**
     * Claims the trial {@link #mayTakeTrial} allowed, so that two threads picking at once do not both take it;
     * false if another did first.
     */
    boolean claimTrial(long nowNanos, long intervalNanos) {
        long last = lastTrialNanos;
        return mayTakeTrial(nowNanos, intervalNanos) && LAST_TRIAL.compareAndSet(this, last, nowNanos);
    }

    long downSinceNanos() {
        return downSinceNanos;
    }

    void setDownSinceNanos(long nanos) {
        this.downSinceNanos = nanos;
    }

    void acquire() {
        IN_FLIGHT.getAndAdd(this, 1);
    }

    void release() {
        IN_FLIGHT.getAndAdd(this, -1);
    }

    /** Adds the success increment, up to max; a full or down callee is left unwritten. */
    void recordSuccess() {
        WeightRules.Limits l = limits;
        for (;;) {
            double w = weight;
            if (w <= 0 || w >= l.max()) {
                return;
            }
            double next = Math.min(l.max(), w + l.increment());
            if (WEIGHT.compareAndSet(this, w, next)) {
                if (revived && next >= l.trickleBelow()) {
                    revived = false;
                }
                return;
            }
        }
    }

    /** Multiplies the weight by the failure factor; returns true if this took the callee down. */
    boolean recordFailure() {
        WeightRules.Limits l = limits;
        for (;;) {
            double w = weight;
            if (w <= 0) {
                return false;
            }
            double cut = w * l.failureFactor();
            double next = cut < l.downBelow() ? l.min() : Math.max(cut, l.min());
            if (next == w) {
                return false;
            }
            if (WEIGHT.compareAndSet(this, w, next)) {
                return next <= 0;
            }
        }
    }

    /** Cuts the weight like a failure, but never below the slow floor nor to down. */
    void penaliseSlow() {
        WeightRules.Limits l = limits;
        for (;;) {
            double w = weight;
            if (w <= l.slowFloor()) {
                return;
            }
            if (WEIGHT.compareAndSet(this, w, Math.max(l.slowFloor(), w * l.failureFactor()))) {
                return;
            }
        }
    }

    /** Takes the callee out of rotation regardless of its minimum; true if it was up. */
    boolean markDown() {
        for (;;) {
            double w = weight;
            if (w <= 0) {
                return false;
            }
            if (WEIGHT.compareAndSet(this, w, 0.0)) {
                return true;
            }
        }
    }

    /** Brings a down callee back at the recovery weight; true if this call did it. */
    boolean revive() {
        WeightRules.Limits l = limits;
        if (l.max() > 0 && WEIGHT.compareAndSet(this, 0.0, l.recovery())) {
            revived = l.recovery() < l.trickleBelow();
            return true;
        }
        return false;
    }

    /**
     * Applies new configured weights, keeping what was learned: the weight keeps its fraction of
     * the maximum, a down callee stays down, and the latency average is untouched.
     */
    void reconfigure(WeightSpec spec, WeightRules rules) {
        WeightRules.Limits next = rules.limitsFor(spec);
        WeightRules.Limits previous = limits;
        limits = next;
        for (;;) {
            double w = weight;
            double target;
            if (next.max() <= 0) {
                target = 0;
            } else if (previous.max() <= 0) {
                target = spec.initialWeight();
            } else if (w <= 0) {
                return;
            } else {
                target = Math.min(next.max(), Math.max(next.min(), w / previous.max() * next.max()));
            }
            if (target == w || WEIGHT.compareAndSet(this, w, target)) {
                return;
            }
        }
    }

    /** Adds a latency sample to this interval's striped sums; folded later by {@link #fold}. */
    void addSample(long latencyNanos) {
        latencySum.add(Math.max(0, latencyNanos));
        latencyCount.increment();
    }

    /**
     * Folds the samples gathered since the last fold into the time-decayed average: their mean
     * weighs {@code 1 - 2^(-dt/halfLife)}, dt being the time since the last fold that had
     * samples. Called by one refresher at a time. A sample added during the fold may have its
     * sum and count land in different folds; over an interval of many samples that is noise.
     *
     * @param decayPerNano ln(2) / half-life in nanoseconds
     */
    void fold(long nowNanos, double decayPerNano) {
        long count = latencyCount.sumThenReset();
        long sum = latencySum.sumThenReset();
        if (count <= 0) {
            return;
        }
        double mean = (double) sum / count;
        double old = ewmaNanos;
        if (Double.isNaN(old)) {
            firstSampleNanos = nowNanos;
            ewmaNanos = mean;
        } else {
            double keep = Math.exp(-Math.max(0, nowNanos - lastSampleNanos) * decayPerNano);
            ewmaNanos = mean + (old - mean) * keep;
        }
        lastSampleNanos = nowNanos;
    }

    double ewmaNanos() {
        return ewmaNanos;
    }

    long lastSampleNanos() {
        return lastSampleNanos;
    }

    long firstSampleNanos() {
        return firstSampleNanos;
    }

    CalleeStats<T> stats() {
        WeightRules.Limits l = limits;
        double ewma = ewmaNanos;
        return new CalleeStats<>(value, l.priority(), l.max(), l.min(), weight, inFlight,
                Double.isNaN(ewma) ? -1 : Math.round(ewma), isDown(), slow);
    }

    @Override
    public String toString() {
        return value + "[weight=" + weight + "/" + limits.max() + ", inFlight=" + inFlight + "]";
    }
}
