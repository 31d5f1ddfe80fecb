package io.lanemq.delay.server;

import io.lanemq.delay.DelayEngine;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The delay server's meters for one cluster; every name is a constant here (Prometheus adds
 * {@code _total}, {@code _seconds}, {@code _bytes} suffixes). Built once per cluster, so the hot
 * paths only increment.
 */
final class DelayServerMetrics {

    static final String PENDING = "lanemq.delay.pending";
    static final String STORE_BYTES = "lanemq.delay.store.bytes";
    static final String DUE_LAG = "lanemq.delay.due.lag";
    static final String FIRE_LAG = "lanemq.delay.fire.lag";
    static final String DELIVERIES = "lanemq.delay.deliveries";
    static final String DUPLICATES_SKIPPED = "lanemq.delay.duplicates.skipped";
    static final String REENQUEUES = "lanemq.delay.reenqueues";
    static final String SCHEDULED = "lanemq.delay.scheduled";
    static final String CANCELS = "lanemq.delay.cancels";
    static final String MALFORMED = "lanemq.delay.malformed";
    static final String HELD_OFFSETS = "lanemq.delay.held.offsets";
    static final String LEDGER_BYTES = "lanemq.delay.ledger.bytes";
    static final String CHECKPOINT_RESTORED = "lanemq.delay.checkpoint.restored";
    static final String CHECKPOINT_QUEUES = "lanemq.delay.checkpoint.queues";
    static final String CHECKPOINT_WRITES = "lanemq.delay.checkpoint.writes";
    static final String CHECKPOINT_REJECTED = "lanemq.delay.checkpoint.rejected";
    static final String TAG_CLUSTER = "cluster";
    static final String TAG_OUTCOME = "outcome";

    final Timer dueLag;
    final Timer fireLag;
    final Counter delivered;
    final Counter deliveryFailed;
    final Counter reenqueued;
    final Counter scheduled;
    final Counter malformed;
    final Counter checkpointRestored;
    final Counter checkpointsWritten;
    final Counter checkpointRejected;
    private final MeterRegistry registry;
    private final String cluster;

    DelayServerMetrics(MeterRegistry registry, String cluster) {
        this.registry = registry;
        this.cluster = cluster;
        this.dueLag = Timer.builder(DUE_LAG).description("Delivery time (send to the broker acknowledged) minus due time")
                .tag(TAG_CLUSTER, cluster).publishPercentileHistogram().publishPercentiles(0.5, 0.99)
                .minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofMinutes(10))
                .register(registry);
        this.fireLag = Timer.builder(FIRE_LAG)
                .description("Time the engine handed a record to the SDK minus its due time (the server's own share of the due lag)")
                .tag(TAG_CLUSTER, cluster).publishPercentileHistogram().publishPercentiles(0.5, 0.99)
                .minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofMinutes(10))
                .register(registry);
        this.delivered = Counter.builder(DELIVERIES).tag(TAG_CLUSTER, cluster).tag(TAG_OUTCOME, "delivered")
                .register(registry);
        this.deliveryFailed = Counter.builder(DELIVERIES).tag(TAG_CLUSTER, cluster).tag(TAG_OUTCOME, "failed")
                .register(registry);
        this.reenqueued = Counter.builder(REENQUEUES).description("Long-pending records sent again to the internal topic")
                .tag(TAG_CLUSTER, cluster).register(registry);
        this.scheduled = Counter.builder(SCHEDULED).tag(TAG_CLUSTER, cluster).register(registry);
        this.malformed = Counter.builder(MALFORMED).description("Internal-topic messages skipped as unreadable")
                .tag(TAG_CLUSTER, cluster).register(registry);
        this.checkpointRestored = Counter.builder(CHECKPOINT_RESTORED)
                .description("Held offsets rebuilt from a ledger checkpoint at start, instead of re-read from the internal topic")
                .tag(TAG_CLUSTER, cluster).register(registry);
        this.checkpointsWritten = Counter.builder(CHECKPOINT_WRITES).description("Ledger checkpoints written")
                .tag(TAG_CLUSTER, cluster).register(registry);
        this.checkpointRejected = Counter.builder(CHECKPOINT_REJECTED)
                .description("Ledger checkpoints found unusable at start (CRC, version, truncated, another cluster)")
                .tag(TAG_CLUSTER, cluster).register(registry);
    }

    /** Gauges read from the engine and the ledgers (held offsets, their heap in bytes) while they live. */
    void bind(DelayEngine engine, LongSupplier heldOffsets, LongSupplier ledgerBytes) {
        Gauge.builder(PENDING, engine, DelayEngine::pendingCount).tag(TAG_CLUSTER, cluster).register(registry);
        Gauge.builder(STORE_BYTES, engine, DelayEngine::storeBytes).baseUnit("bytes").tag(TAG_CLUSTER, cluster)
                .register(registry);
        FunctionCounter.builder(DUPLICATES_SKIPPED, engine, DelayEngine::duplicatesSkipped)
                .description("Copies of an already stored id, read again from the internal topic and not delivered again")
                .tag(TAG_CLUSTER, cluster).register(registry);
        Gauge.builder(HELD_OFFSETS, heldOffsets::getAsLong).tag(TAG_CLUSTER, cluster).register(registry);
        Gauge.builder(LEDGER_BYTES, ledgerBytes::getAsLong).baseUnit("bytes")
                .description("Heap of the held-offset bookkeeping (ledgers and settlement book), estimated from array sizes")
                .tag(TAG_CLUSTER, cluster).register(registry);
    }

    void cancelled(String result) {
        Counter.builder(CANCELS).tag(TAG_CLUSTER, cluster).tag(TAG_OUTCOME, result).register(registry).increment();
    }

    void fireLag(long lagMillis) {
        fireLag.record(Math.max(0, lagMillis), TimeUnit.MILLISECONDS);
    }

    /** A checkpointed queue was restored, or discarded and read again from its committed offset. */
    void checkpointQueue(String outcome) {
        Counter.builder(CHECKPOINT_QUEUES).tag(TAG_CLUSTER, cluster).tag(TAG_OUTCOME, outcome).register(registry)
                .increment();
    }

    void dueLag(long lagMillis) {
        dueLag.record(Math.max(0, lagMillis), TimeUnit.MILLISECONDS);
    }
}
