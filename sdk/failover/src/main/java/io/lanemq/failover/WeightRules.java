package io.lanemq.failover;

/**
 * How outcomes move a callee's weight; the builder's settings, validated there. Turned into
 * per-callee {@link Limits} so the hot path multiplies by precomputed numbers.
 */
record WeightRules(double failureFactor, double successIncrementRatio, double downThresholdRatio,
        double recoveryRatio) {

    static final WeightRules DEFAULTS = new WeightRules(0.5, 0.01, 0.01, 0.1);

    Limits limitsFor(WeightSpec spec) {
        double max = spec.maxWeight();
        double min = spec.minWeight();
        double downBelow = downThresholdRatio * max;
        double recovery = Math.max(min, recoveryRatio * max);
        // Twice the revival weight: a callee a probe brought back must prove itself on a trickle of calls
        // (a success adds 1% of max by default, so ten of them) before it takes a share of the traffic again.
        // Capped at half the max, so that a generous recovery ratio does not keep a revived callee limited long.
        double trickleBelow = Math.min(2 * recovery, max / 2);
        return new Limits(max, min, spec.priority(), failureFactor, successIncrementRatio * max,
                downBelow, recovery, Math.max(min, downBelow), trickleBelow);
    }

    /**
     * The numbers one callee's weight moves by.
     *
     * @param downBelow a failure that leaves less than this drops to {@code min} (0 means down):
     *                  multiplying alone would only approach zero
     * @param recovery  the weight a successful probe restores
     * @param slowFloor latency penalties stop here, so a slow callee keeps a trickle of traffic
     * @param trickleBelow a revived callee is limited to a trickle of calls until its weight is back here (see
     *                     {@link WeightedFailover.Builder#trickleInterval})
     */
    record Limits(double max, double min, int priority, double failureFactor, double increment,
            double downBelow, double recovery, double slowFloor, double trickleBelow) {
    }
}
