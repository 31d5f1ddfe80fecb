package io.lanemq.benchmarks.delay;

import io.lanemq.delay.server.DelayServer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * A running delay server's own meters, summed over its clusters: what the backlog benchmark reads
 * instead of reaching into the server. Names are the server's (see its README's metrics section).
 */
final class ServerGauges {

    private final MeterRegistry registry;

    ServerGauges(DelayServer server) {
        this.registry = server.registry();
    }

    /** Records stored and not settled. */
    long pending() {
        return (long) gauge("lanemq.delay.pending");
    }

    /** Internal-topic offsets read and not yet safe to commit. */
    long heldOffsets() {
        return (long) gauge("lanemq.delay.held.offsets");
    }

    /** The server's own estimate of the heap its offset bookkeeping takes. */
    long ledgerBytes() {
        return (long) gauge("lanemq.delay.ledger.bytes");
    }

    long storeBytes() {
        return (long) gauge("lanemq.delay.store.bytes");
    }

    /** Held offsets rebuilt from a ledger checkpoint at start. */
    long restoredFromCheckpoint() {
        return (long) counter("lanemq.delay.checkpoint.restored");
    }

    /** Records the server stored (a re-read old copy whose bucket is on disk only counts here too). */
    long scheduled() {
        return (long) counter("lanemq.delay.scheduled");
    }

    /** Old copies read again and recognised (or dropped at load) as duplicates of stored ids. */
    long duplicatesSkipped() {
        return (long) registry.find("lanemq.delay.duplicates.skipped").functionCounters().stream()
                .mapToDouble(c -> c.count()).sum();
    }

    /** Deliveries the broker acknowledged. */
    long delivered() {
        return deliveries("delivered");
    }

    /** Delivery attempts that failed (each is retried with backoff). */
    long deliveryFailures() {
        return deliveries("failed");
    }

    private long deliveries(String outcome) {
        return (long) registry.find("lanemq.delay.deliveries").tag("outcome", outcome).counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    private double counter(String name) {
        return registry.find(name).counters().stream().mapToDouble(Counter::count).sum();
    }

    private double gauge(String name) {
        return registry.find(name).gauges().stream().mapToDouble(Gauge::value).sum();
    }
}
