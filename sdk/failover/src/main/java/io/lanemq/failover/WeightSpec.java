package io.lanemq.failover;

/**
 * The configured weights of one callee; immutable and validated on construction.
 *
 * <ul>
 *   <li>{@code maxWeight}: the weight of a fully healthy callee; its share of traffic is
 *       {@code maxWeight} over the sum of its peers'. 0 keeps the callee listed but unused.</li>
 *   <li>{@code minWeight}: failures never cut below it. Above 0 the callee always stays
 *       eligible (both clusters of a dual-IDC topic, say); at 0 enough failures take it down
 *       until a probe succeeds.</li>
 *   <li>{@code initialWeight}: the weight it starts with (warm-up); it climbs to
 *       {@code maxWeight} through successes.</li>
 *   <li>{@code priority}: lower is preferred; traffic spills to the next priority only as the
 *       preferred group loses health (see {@link WeightedFailover.Builder#priorityFactor}).</li>
 * </ul>
 *
 * <pre>{@code
 * WeightSpec local = WeightSpec.of(100).withMinWeight(5);
 * WeightSpec standby = WeightSpec.of(100).withPriority(1);
 * }</pre>
 */
public record WeightSpec(double maxWeight, double minWeight, double initialWeight, int priority) {

    /** Validates each weight, naming the offending one. */
    public WeightSpec {
        if (!(maxWeight >= 0) || Double.isInfinite(maxWeight)) {
            throw new IllegalArgumentException("maxWeight must be finite and >= 0, got " + maxWeight);
        }
        if (!(minWeight >= 0) || minWeight > maxWeight) {
            throw new IllegalArgumentException(
                    "minWeight must be within [0, maxWeight=" + maxWeight + "], got " + minWeight);
        }
        if (!(initialWeight >= minWeight) || initialWeight > maxWeight) {
            throw new IllegalArgumentException("initialWeight must be within [minWeight=" + minWeight
                    + ", maxWeight=" + maxWeight + "], got " + initialWeight);
        }
    }

    /** A callee that starts fully weighted, may go down, at priority 0. */
    public static WeightSpec of(double maxWeight) {
        return new WeightSpec(maxWeight, 0, maxWeight, 0);
    }

    /** Returns a copy with {@code minWeight}; the initial weight is raised to it if lower. */
    public WeightSpec withMinWeight(double minWeight) {
        return new WeightSpec(maxWeight, minWeight, Math.max(initialWeight, minWeight), priority);
    }

    /** Returns a copy that starts at {@code initialWeight} and warms up to the maximum. */
    public WeightSpec withInitialWeight(double initialWeight) {
        return new WeightSpec(maxWeight, minWeight, initialWeight, priority);
    }

    /** Returns a copy in priority group {@code priority} (lower is preferred). */
    public WeightSpec withPriority(int priority) {
        return new WeightSpec(maxWeight, minWeight, initialWeight, priority);
    }
}
