package io.lanemq.failover;

import java.time.Duration;
import java.util.Optional;

/**
 * A point-in-time view of one callee, for metrics and diagnostics. Fields are read one by one
 * from live state, so under traffic they may be a few operations apart.
 *
 * @param callee           the callee
 * @param priority         its priority group
 * @param maxWeight        configured maximum weight
 * @param minWeight        configured minimum weight
 * @param currentWeight    learned weight, within [minWeight, maxWeight] or 0 when down
 * @param inFlight         leases handed out and not yet completed
 * @param ewmaLatencyNanos smoothed success latency, or -1 before the first latency sample
 * @param down             whether it is out of rotation until a probe succeeds
 * @param slow             whether its smoothed latency is currently penalised against its peers
 * @param <T>              the callee type
 */
public record CalleeStats<T>(T callee, int priority, double maxWeight, double minWeight,
        double currentWeight, int inFlight, long ewmaLatencyNanos, boolean down, boolean slow) {

    /** The smoothed success latency, empty before the first sample. */
    public Optional<Duration> ewmaLatency() {
        return ewmaLatencyNanos < 0 ? Optional.empty() : Optional.of(Duration.ofNanos(ewmaLatencyNanos));
    }
}
