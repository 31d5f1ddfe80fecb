package io.lanemq.dialtest;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Every metric of the dial test: the names (the one place they are spelled; {@code dashboards/} uses exactly the
 * Prometheus forms listed in {@link #prometheusNames()}, which a test checks) and their registration.
 *
 * <p>Per lane (tags {@code cluster}, {@code broker}, {@code kind}) every counter and the latency timer are
 * registered when the lane first appears, so a dashboard sees zeros rather than gaps. Thread-safe.
 */
public final class DialTestMetrics {

    /** Probes the broker accepted. Prometheus: {@code lanemq_dialtest_probes_sent_total}. */
    public static final String PROBES_SENT = "lanemq.dialtest.probes.sent";
    /** Tracked probes acked for the first time in time. Prometheus: {@code lanemq_dialtest_probes_acked_total}. */
    public static final String PROBES_ACKED = "lanemq.dialtest.probes.acked";
    /** Tracked probes not acked within their deadline. Prometheus: {@code lanemq_dialtest_probes_lost_total}. */
    public static final String PROBES_LOST = "lanemq.dialtest.probes.lost";
    /** Acks beyond the first for one probe. Prometheus: {@code lanemq_dialtest_probes_duplicated_total}. */
    public static final String PROBES_DUPLICATED = "lanemq.dialtest.probes.duplicated";
    /** Sends the broker did not accept (errors, timeouts). Prometheus: {@code lanemq_dialtest_send_failures_total}. */
    public static final String SEND_FAILURES = "lanemq.dialtest.send.failures";
    /**
     * Probes the sender never sent because it fell over a second behind its rate (so the rate reached is below the
     * target). Prometheus: {@code lanemq_dialtest_probes_dropped_total}.
     */
    public static final String PROBES_DROPPED = "lanemq.dialtest.probes.dropped";
    /** First acks of probes already counted lost or failed. Prometheus: {@code lanemq_dialtest_acks_late_total}. */
    public static final String ACKS_LATE = "lanemq.dialtest.acks.late";
    /**
     * End-to-end latency of acked probes, from the due time (the send, or the send plus the delay) to the ack's
     * arrival. Prometheus: {@code lanemq_dialtest_probe_latency_seconds_bucket}, {@code _count}, {@code _sum},
     * {@code _max}.
     */
    public static final String PROBE_LATENCY = "lanemq.dialtest.probe.latency";
    /** Input the ack listener dropped, by reason. Prometheus: {@code lanemq_dialtest_ack_frames_rejected_total}. */
    public static final String ACK_FRAMES_REJECTED = "lanemq.dialtest.ack.frames.rejected";
    /** Acks the consumer could not deliver to the producer. Prometheus: {@code lanemq_dialtest_acks_undelivered_total}. */
    public static final String ACKS_UNDELIVERED = "lanemq.dialtest.acks.undelivered";
    /** Probe-topic messages the consumer did not ack (malformed, stale). Prometheus: {@code lanemq_dialtest_probes_skipped_total}. */
    public static final String PROBES_SKIPPED = "lanemq.dialtest.probes.skipped";
    /** Tracked probes awaiting their ack now. Prometheus: {@code lanemq_dialtest_probes_pending}. */
    public static final String PROBES_PENDING = "lanemq.dialtest.probes.pending";
    /**
     * When the last reconciliation ran, epoch seconds: a stale value means the dial test itself stopped.
     * Prometheus: {@code lanemq_dialtest_last_reconciliation_timestamp_seconds}.
     */
    public static final String LAST_RECONCILIATION = "lanemq.dialtest.last.reconciliation.timestamp";
    /**
     * The probe rate the senders aim at, per broker and per kind (fixed, or the current step of a stress ramp).
     * Prometheus: {@code lanemq_dialtest_target_rate}.
     */
    public static final String TARGET_RATE = "lanemq.dialtest.target.rate";

    /**
     * The share of a probed logic topic's send weight that the configuration in force gives a cluster (0 to 1), beside
     * which the logic-topic probes' split is read ({@code probes_sent_total{kind="logic_topic"}} by cluster).
     * Prometheus: {@code lanemq_dialtest_logic_topic_weight_share}; tags {@code logic_topic}, {@code cluster}.
     */
    public static final String LOGIC_TOPIC_WEIGHT_SHARE = "lanemq.dialtest.logic.topic.weight.share";

    public static final String TAG_CLUSTER = "cluster";
    public static final String TAG_LOGIC_TOPIC = "logic_topic";
    public static final String TAG_BROKER = "broker";
    public static final String TAG_KIND = "kind";
    public static final String TAG_REASON = "reason";

    /** Reasons of {@link #PROBES_SKIPPED}. */
    public static final String SKIP_MALFORMED = "malformed";
    public static final String SKIP_STALE = "stale";

    private static final Duration LATENCY_MIN = Duration.ofMillis(1);
    private static final Duration LATENCY_MAX = Duration.ofMinutes(2);

    private final MeterRegistry registry;
    private final Map<AckRejection, Counter> rejected = new EnumMap<>(AckRejection.class);
    private final Map<String, Counter> undelivered = new ConcurrentHashMap<>();
    private final Map<String, Counter> skipped = new ConcurrentHashMap<>();
    private final AtomicLong lastReconciliationMillis = new AtomicLong();

    public DialTestMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (AckRejection reason : AckRejection.values()) {
            rejected.put(reason, Counter.builder(ACK_FRAMES_REJECTED).tag(TAG_REASON, reason.label())
                .description("Input the ack listener dropped, by reason").register(registry));
        }
        Gauge.builder(LAST_RECONCILIATION, lastReconciliationMillis, v -> v.get() / 1000.0).baseUnit("seconds")
            .description("Epoch seconds of the last reconciliation").register(registry);
    }

    /** The Prometheus series names this class exports: exactly what a dashboard or an alert rule may query. */
    public static Set<String> prometheusNames() {
        Set<String> names = new LinkedHashSet<>();
        for (String counter : new String[] {PROBES_SENT, PROBES_ACKED, PROBES_LOST, PROBES_DUPLICATED, SEND_FAILURES,
            ACKS_LATE, ACK_FRAMES_REJECTED, ACKS_UNDELIVERED, PROBES_SKIPPED, PROBES_DROPPED}) {
            names.add(prometheus(counter) + "_total");
        }
        String latency = prometheus(PROBE_LATENCY) + "_seconds";
        for (String suffix : new String[] {"_bucket", "_count", "_sum", "_max"}) {
            names.add(latency + suffix);
        }
        names.add(prometheus(PROBES_PENDING));
        names.add(prometheus(LAST_RECONCILIATION) + "_seconds");
        names.add(prometheus(TARGET_RATE));
        names.add(prometheus(LOGIC_TOPIC_WEIGHT_SHARE));
        return names;
    }

    private static String prometheus(String micrometerName) {
        return micrometerName.replace('.', '_');
    }

    /** The meters of one lane, registered on first use. */
    LaneMeters lane(LaneKey key) {
        Tags tags = Tags.of(TAG_CLUSTER, key.cluster(), TAG_BROKER, key.broker(), TAG_KIND, key.kind().label());
        return new LaneMeters(
            counter(PROBES_SENT, tags, "Probes the broker accepted"),
            counter(PROBES_ACKED, tags, "Tracked probes acked in time"),
            counter(PROBES_LOST, tags, "Tracked probes not acked within their deadline"),
            counter(PROBES_DUPLICATED, tags, "Acks beyond the first for one probe"),
            counter(SEND_FAILURES, tags, "Probe sends the broker did not accept"),
            counter(ACKS_LATE, tags, "First acks of probes already counted lost or failed"),
            counter(PROBES_DROPPED, tags, "Probes not sent because the sender fell over a second behind its rate"),
            Timer.builder(PROBE_LATENCY).tags(tags).publishPercentileHistogram()
                .minimumExpectedValue(LATENCY_MIN).maximumExpectedValue(LATENCY_MAX)
                .description("End-to-end probe latency from the due time to the ack").register(registry));
    }

    private Counter counter(String name, Tags tags, String description) {
        return Counter.builder(name).tags(tags).description(description).register(registry);
    }

    /** Registers the gauge of tracked probes awaiting an ack. */
    void pendingProbes(Supplier<Number> pending) {
        Gauge.builder(PROBES_PENDING, pending).description("Tracked probes awaiting their ack").register(registry);
    }

    /** Registers the gauge of the target probe rate. */
    void targetRate(Supplier<Number> rate) {
        Gauge.builder(TARGET_RATE, rate).description("Target probes per second, per broker and per kind")
            .register(registry);
    }

    /** Registers the gauge of the weight share the configuration in force gives {@code cluster} on {@code logicTopic}. */
    void logicTopicWeight(String logicTopic, String cluster, Supplier<Number> share) {
        Gauge.builder(LOGIC_TOPIC_WEIGHT_SHARE, share).tags(TAG_LOGIC_TOPIC, logicTopic, TAG_CLUSTER, cluster)
            .description("Share of the probed logic topic's send weight the configuration in force gives the cluster")
            .register(registry);
    }

    void rejected(AckRejection reason) {
        rejected.get(reason).increment();
    }

    void ackUndelivered(String cluster) {
        undeliveredCounter(cluster).increment();
    }

    void probeSkipped(String cluster, String reason) {
        skippedCounter(cluster, reason).increment();
    }

    /** Registers the consumer-side counters of a cluster at zero, so they exist before anything goes wrong. */
    void consumerCluster(String cluster) {
        undeliveredCounter(cluster);
        skippedCounter(cluster, SKIP_MALFORMED);
        skippedCounter(cluster, SKIP_STALE);
    }

    private Counter undeliveredCounter(String cluster) {
        return undelivered.computeIfAbsent(cluster, c -> counter(ACKS_UNDELIVERED, Tags.of(TAG_CLUSTER, c),
            "Acks the consumer could not deliver to the producer"));
    }

    private Counter skippedCounter(String cluster, String reason) {
        return skipped.computeIfAbsent(cluster + "\u0000" + reason, k -> counter(PROBES_SKIPPED,
            Tags.of(TAG_CLUSTER, cluster, TAG_REASON, reason), "Probe-topic messages the consumer did not ack"));
    }

    void reconciled(long epochMillis) {
        lastReconciliationMillis.set(epochMillis);
    }

    double rejectedCount(AckRejection reason) {
        return rejected.get(reason).count();
    }

    /** The meters of one lane. */
    record LaneMeters(Counter sent, Counter acked, Counter lost, Counter duplicated, Counter sendFailures,
                      Counter late, Counter dropped, Timer latency) {
    }
}
