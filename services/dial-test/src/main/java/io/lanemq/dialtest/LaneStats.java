package io.lanemq.dialtest;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The live counters of one lane, updated by senders, the ack listener and the reconciler at once, and mirrored
 * into the lane's Micrometer meters. Latency goes to an HdrHistogram {@link Recorder} (lock-free recording,
 * swapped out per period) in microseconds.
 */
final class LaneStats {

    private static final int SIGNIFICANT_DIGITS = 3;

    private final LaneKey key;
    private final DialTestMetrics.LaneMeters meters;
    private final LongAdder sent = new LongAdder();
    private final LongAdder sendFailures = new LongAdder();
    private final LongAdder acked = new LongAdder();
    private final LongAdder lost = new LongAdder();
    private final LongAdder duplicated = new LongAdder();
    private final LongAdder late = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final Recorder latency = new Recorder(SIGNIFICANT_DIGITS);
    private Histogram interval;
    private final Histogram total = new Histogram(SIGNIFICANT_DIGITS);

    LaneStats(LaneKey key, DialTestMetrics.LaneMeters meters) {
        this.key = key;
        this.meters = meters;
        this.total.setAutoResize(true);
    }

    LaneKey key() {
        return key;
    }

    void sent() {
        sent.increment();
        meters.sent().increment();
    }

    void sendFailed() {
        sendFailures.increment();
        meters.sendFailures().increment();
    }

    void acked(long latencyNanos) {
        long nanos = Math.max(0, latencyNanos);
        acked.increment();
        meters.acked().increment();
        latency.recordValue(TimeUnit.NANOSECONDS.toMicros(nanos));
        meters.latency().record(nanos, TimeUnit.NANOSECONDS);
    }

    void lost() {
        lost.increment();
        meters.lost().increment();
    }

    void duplicated() {
        duplicated.increment();
        meters.duplicated().increment();
    }

    void late() {
        late.increment();
        meters.late().increment();
    }

    /** The sender gave up {@code probes} probes it fell too far behind to send. */
    void dropped(long probes) {
        dropped.add(probes);
        meters.dropped().increment(probes);
    }

    LaneCounts counts() {
        return new LaneCounts(sent.sum(), sendFailures.sum(), acked.sum(), lost.sum(), duplicated.sum(), late.sum(),
            dropped.sum());
    }

    /** The latency recorded since the last call, also added to the run's total. Reconciler thread only. */
    Histogram takeInterval() {
        interval = latency.getIntervalHistogram(interval);
        total.add(interval);
        return interval;
    }

    /** The latency of the whole run up to the last {@link #takeInterval()}. Reconciler thread only. */
    Histogram total() {
        return total;
    }
}
