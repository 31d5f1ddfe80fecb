package io.lanemq.proxy;

import io.micrometer.core.instrument.Counter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The deliveries counter of each connected consumer of one group, looked up once per consumer instead of once per
 * message, and removed from the registry when the consumer leaves.
 *
 * <p>Why not {@code registry.counter(name, tags)} per delivery: it builds the tags and the meter id and searches the
 * registry's map on every call; in a JFR profile of the proxy drain (P3) that was 8.6% of the fetch thread's
 * samples, the thread that pushes every delivery. Removing on leave keeps the registry bounded: every connection has
 * a consumer id of its own, so meters of consumers that left would otherwise pile up for the proxy's lifetime.
 */
final class DeliveryCounters {
    private final ProxyMetrics metrics;
    private final GroupKey group;
    private final Map<String, Counter> byConsumer = new ConcurrentHashMap<>();

    DeliveryCounters(ProxyMetrics metrics, GroupKey group) {
        this.metrics = metrics;
        this.group = group;
    }

    Counter of(String consumerId) {
        return byConsumer.computeIfAbsent(consumerId, id -> metrics.deliveries(group, id));
    }

    /** The consumer left: its counter leaves the registry (a consumer that comes back with the same id starts at 0). */
    void forget(String consumerId) {
        Counter counter = byConsumer.remove(consumerId);
        if (counter != null) {
            metrics.registry().remove(counter);
        }
    }
}
