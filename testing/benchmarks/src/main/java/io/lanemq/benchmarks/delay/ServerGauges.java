package io.lanemq.benchmarks.delay;

import io.lanemq.delay.server.DelayServer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import java.util.concurrent.TimeUnit;

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

    /**
     * The server's own due lag (the broker's acknowledgement of a delivery minus its due time) per cluster, as
     * "cluster p50/p99/max ms": it splits a late arrival into the server's part and the consumer's part.
     */
    String dueLag() {
        return lag("lanemq.delay.due.lag");
    }

    /** The same for the time the engine handed each record to the SDK. */
    String fireLag() {
        return lag("lanemq.delay.fire.lag");
    }

    private String lag(String timer) {
        StringBuilder out = new StringBuilder();
        for (Timer t : registry.find(timer).timers()) {
            HistogramSnapshot s = t.takeSnapshot();
            out.append(out.isEmpty() ? "" : ", ").append(t.getId().getTag("cluster"));
            for (ValueAtPercentile v : s.percentileValues()) {
                out.append(String.format(" %.1f", v.value(TimeUnit.MILLISECONDS)));
            }
            out.append(String.format(" / max %.1f ms", s.max(TimeUnit.MILLISECONDS)));
        }
        return out.toString();
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
