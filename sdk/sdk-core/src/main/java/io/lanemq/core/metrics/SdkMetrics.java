package io.lanemq.core.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import io.lanemq.config.ConsumptionMode;
import io.lanemq.support.attach.AttachLoop;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * Every metric the SDK core exports, named in one place so dashboards and alerts can rely on
 * exactly these names. Tags: {@code application} on all, and {@code logic_topic}, {@code cluster},
 * {@code group}, {@code outcome} where they apply; sends also carry {@code traffic} ({@code production} or
 * {@code stress}: stress-test sends, which went to shadow topics).
 *
 * <p>A consumer's state is observable here too, so an operator (or a test) needs nothing but the
 * registry: {@link #CONSUMER_MODE} for the mode a subscription consumes in, {@link #DIRECT_THREADS} and
 * {@link #DIRECT_DRAINING} for what its DIRECT consumers run and still drain, {@link #CONSUMER_LAG} for what their
 * group has not committed on each cluster, {@link #PROXY_CONNECTED} and
 * {@link #PROXY_STREAM_ENDS} for its stream to the consumer proxy. The gauges of one subscription carry
 * its {@code subscription} tag (two subscriptions of a group each report their own) and leave the
 * registry when it closes. Example, in PromQL: {@code sum by (group, mode) (lanemq_consumer_mode)}.
 */
public final class SdkMetrics {
    /** Sends by outcome ({@code success} / {@code failure}); counter. */
    public static final String SENDS = "lanemq.producer.sends";
    /** Time from send to broker acknowledgement or failure; timer. */
    public static final String SEND_LATENCY = "lanemq.producer.send.latency";
    /** Sends refused before any network call, by {@code reason}; counter. */
    public static final String SENDS_REJECTED = "lanemq.producer.rejected";
    /** Current send weight of each cluster of a logic topic, as the failover has learned it; gauge. */
    public static final String CLUSTER_WEIGHT = "lanemq.producer.cluster.weight";
    /** Send attempts retried on another cluster after a failure, by the {@code cluster} that failed; counter. */
    public static final String FAILOVERS = "lanemq.producer.failovers";
    /** Messages per request the producer's batch gathering sent: its count is requests, its total messages. */
    public static final String BATCH_MESSAGES = "lanemq.producer.batch.messages";
    /** Configuration changes seen, by outcome ({@code applied} / {@code rejected}); counter. */
    public static final String CONFIG_RELOADS = "lanemq.config.reloads";
    /** 1 while the last configuration change was rejected (the previous one stays in force), else 0; gauge. */
    public static final String CONFIG_LAST_RELOAD_FAILED = "lanemq.config.last.reload.failed";
    /**
     * 1 while the client runs on its local snapshot of the configuration (its config centre was unreachable at start),
     * 0 once the centre's current document took effect; gauge. The health says since when.
     */
    public static final String CONFIG_STALE = "lanemq.config.stale";
    /**
     * The config centre's revision of the configuration in force (etcd's revision of the key; of the canary key while
     * {@link #CONFIG_CANARY} is 1), 0 for a file; gauge.
     */
    public static final String CONFIG_REVISION = "lanemq.config.revision";
    /** 1 while the client runs a canary's candidate rather than the configuration everyone runs, else 0; gauge. */
    public static final String CONFIG_CANARY = "lanemq.config.canary";
    /**
     * Messages handed to listeners, by outcome (a {@link ConsumeOutcome}: {@code success} / {@code retry} /
     * {@code dead_letter}); counter. {@code dead_letter} counts each message this consumer sent to its group's
     * dead-letter topic: the listener answered {@code DEAD_LETTER}, or failed its last allowed attempt.
     */
    public static final String CONSUMED = "lanemq.consumer.messages";
    /**
     * Retries a subscription with a back-off scheduled, by {@code path} (a {@link RetryPath}: how the delay is kept);
     * counter. Only with a back-off: without one the broker's or the proxy's own ladder applies.
     */
    public static final String RETRY_BACKOFFS = "lanemq.consumer.retry.backoffs";
    /** Time a listener took per message; timer with a percentile histogram ({@code _bucket}), for p99 by group. */
    public static final String CONSUME_LATENCY = "lanemq.consumer.process.latency";
    /**
     * How one subscription consumes now: 1 on the {@code mode} it consumes in ({@code direct} / {@code proxy}), 0 on the
     * other; gauge, tagged with its {@code subscription}. A configuration change that moves the group flips it once the
     * new path has started (the old one may still be finishing).
     */
    public static final String CONSUMER_MODE = "lanemq.consumer.mode";
    /**
     * DIRECT mode: the listener threads of a subscription's consumer on one {@code cluster}, tagged with the
     * {@code physical_topic} it consumes; gauge, there while that consumer runs. A reload that moves the logic topic or
     * changes the thread count shows here once the new consumer runs.
     */
    public static final String DIRECT_THREADS = "lanemq.consumer.direct.threads";
    /**
     * DIRECT mode: the clusters on which a subscription still drains a physical topic a change moved it away from;
     * gauge, back to 0 once each is empty and its consumer runs on the new topic alone.
     */
    public static final String DIRECT_DRAINING = "lanemq.consumer.direct.draining";
    /**
     * DIRECT mode: the messages a subscription's group has not committed on one {@code cluster} (per queue, the broker's
     * max offset minus the group's committed offset), summed over every physical topic its consumer there reads: the
     * logic topic's, its shadow topic when the topic takes stress-test traffic, and a topic a move left that it still
     * drains; gauge, there while that consumer runs. Refreshed in the background (every 10 s), so a scrape makes no
     * broker call; NaN while unknown (not asked yet, or the cluster did not answer), never a made-up 0. The brokers count
     * for the whole group, so each instance of the group reports the same value: aggregate with {@code max}, not
     * {@code sum}. Committed offsets trail consumption by the binding's persist interval (5 s in RocketMQ). PROXY-mode
     * groups show theirs in the consumer proxy's {@code lanemq.proxy.lag}.
     */
    public static final String CONSUMER_LAG = "lanemq.consumer.lag";

    /**
     * DIRECT mode: attempts to attach a subscription's consumer to a cluster, by {@code outcome} (an
     * {@link AttachOutcome}): {@code attached}, {@code unreachable} (retried soon, jittered) or {@code refused} (an
     * error waiting will not cure: refused keys, an absent topic or group; retried slowly); counter. A cluster that is
     * down at a start or after a change shows here until it answers, and in the client's health. The services (consumer
     * proxy, delay server, dial test) count their own consumers' attach attempts here too, tagged with their group.
     */
    public static final String CONSUMER_ATTACH_ATTEMPTS = "lanemq.consumer.attach.attempts";
    /**
     * Attempts to start a producer group's producer on a cluster, by {@code outcome} as for
     * {@link #CONSUMER_ATTACH_ATTEMPTS} ({@code attached}: started); counter. A cluster that refused a producer (ACL
     * refused) is out of that producer's rotation and tried again at the refused back-off; each try counts here.
     */
    public static final String PRODUCER_START_ATTEMPTS = "lanemq.producer.start.attempts";

    /** PROXY mode: 1 while a consumer's stream to the consumer proxy is subscribed, else 0; gauge. */
    public static final String PROXY_CONNECTED = "lanemq.consumer.proxy.connected";
    /** PROXY mode: streams to the consumer proxy that ended or were refused, by gRPC {@code status}; counter. */
    public static final String PROXY_STREAM_ENDS = "lanemq.consumer.proxy.stream.ends";

    /** Messages a lane-aware consumer placed, by {@code outcome} (a {@link LaneOutcome}). */
    public static final String LANE_ROUTED = "lanemq.consumer.lane.routed";
    /** Copies a subscription with deduplication acknowledged without calling its listener; counter. */
    /**
     * Calls to a group's shared deduplication store that failed (unreachable, timed out): each such message was
     * processed without the store's word (a possible duplicate, never a loss). Tag {@code operation}: claim, done,
     * release.
     */
    public static final String DEDUP_STORE_FAILURES = "lanemq.consumer.dedup.store.failures";
    public static final String DUPLICATES_DROPPED = "lanemq.consumer.duplicates.dropped";
    public static final String TAG_LOGIC_TOPIC = "logic_topic";
    public static final String TAG_CLUSTER = "cluster";
    public static final String TAG_GROUP = "group";
    public static final String TAG_OUTCOME = "outcome";
    public static final String TAG_REASON = "reason";
    public static final String TAG_OPERATION = "operation";
    /** One PROXY-mode consumer's id, as the proxy knows it. */
    public static final String TAG_CONSUMER = "consumer";
    public static final String TAG_PATH = "path";
    /** One subscription (a {@code Consumer} the application holds) in this process, {@code <pid>-<n>}. */
    public static final String TAG_SUBSCRIPTION = "subscription";
    /** A {@code ConsumptionMode}, lower case: {@code direct} or {@code proxy}. */
    public static final String TAG_MODE = "mode";
    /** The physical topic a consumer subscribes to on its cluster. */
    public static final String TAG_PHYSICAL_TOPIC = "physical_topic";
    /** A gRPC status code ({@code UNAUTHENTICATED}, {@code UNAVAILABLE}...). */
    public static final String TAG_STATUS = "status";
    /** On sends: a {@link Traffic#tagValue()}. */
    public static final String TAG_TRAFFIC = "traffic";
    /** On every meter: which application's client it belongs to. */
    public static final String TAG_APPLICATION = "application";
    /**
     * On every meter of an application's client: the platform environment it runs in ({@code ClientOptions.environment()},
     * else the deployment's {@code LANEMQ_ENVIRONMENT}, else {@code default}), the dashboards' {@code $environment}.
     * The services' meters get the label from their scrape instead (deploy/README.md, "Environments").
     */
    public static final String TAG_ENVIRONMENT = "environment";

    private final MeterRegistry registry;
    private final Tags common;
    /** Send and consume meters per topic/cluster(/group): built once, not on every message. */
    private final Map<SendKey, SendMeters> sendMeters = new ConcurrentHashMap<>();
    private final Map<MeterKey, ConsumeMeters> consumeMeters = new ConcurrentHashMap<>();
    private final Map<String, DistributionSummary> batchMeters = new ConcurrentHashMap<>();
    /** Gauges read this client's state: they must leave the registry with the client. */
    private final List<Meter> gauges = new CopyOnWriteArrayList<>();

    /** Meters of a service's own client, with no environment tag: its scrape adds the deployment's. */
    public SdkMetrics(MeterRegistry registry, String application) {
        this(registry, Tags.of(TAG_APPLICATION, application));
    }

    /** Meters of an application's client reading {@code environment} of the platform configuration. */
    public SdkMetrics(MeterRegistry registry, String application, String environment) {
        this(registry, Tags.of(TAG_APPLICATION, application, TAG_ENVIRONMENT, environment));
    }

    private SdkMetrics(MeterRegistry registry, Tags common) {
        this.registry = registry;
        this.common = common;
    }

    /** A send of production traffic. */
    public void sendCompleted(String logicTopic, String cluster, boolean success, long nanos) {
        sendCompleted(logicTopic, cluster, success, nanos, false);
    }

    /** @param stressTest whether it was stress-test traffic (sent to a shadow topic) */
    public void sendCompleted(String logicTopic, String cluster, boolean success, long nanos, boolean stressTest) {
        SendMeters meters = sendMeters.computeIfAbsent(new SendKey(logicTopic, cluster, stressTest), this::sendMeters);
        (success ? meters.succeeded : meters.failed).increment();
        meters.latency.record(nanos, TimeUnit.NANOSECONDS);
    }

    private SendMeters sendMeters(SendKey key) {
        Tags tags = common.and(TAG_LOGIC_TOPIC, key.logicTopic, TAG_CLUSTER, key.cluster,
                TAG_TRAFFIC, (key.stressTest ? Traffic.STRESS : Traffic.PRODUCTION).tagValue());
        return new SendMeters(
                Counter.builder(SENDS).tags(tags).tag(TAG_OUTCOME, outcome(true)).register(registry),
                Counter.builder(SENDS).tags(tags).tag(TAG_OUTCOME, outcome(false)).register(registry),
                Timer.builder(SEND_LATENCY).tags(tags).publishPercentileHistogram().register(registry));
    }

    public void sendRejected(String logicTopic, String reason) {
        Counter.builder(SENDS_REJECTED).tags(common).tags(TAG_LOGIC_TOPIC, logicTopic, TAG_REASON, reason).register(registry).increment();
    }

    public void clusterWeightGauge(String logicTopic, String cluster, DoubleSupplier weight) {
        gauges.add(Gauge.builder(CLUSTER_WEIGHT, weight, DoubleSupplier::getAsDouble).tags(common)
                .tags(TAG_LOGIC_TOPIC, logicTopic, TAG_CLUSTER, cluster).strongReference(true).register(registry));
    }

    /** A request of {@code messages} messages left for {@code cluster} through the batch gathering. */
    public void requestSent(String cluster, int messages) {
        batchMeters.computeIfAbsent(cluster, c -> DistributionSummary.builder(BATCH_MESSAGES).tags(common)
                .tag(TAG_CLUSTER, c).baseUnit("messages").register(registry)).record(messages);
    }

    public void failedOver(String logicTopic, String failedCluster) {
        Counter.builder(FAILOVERS).tags(common).tags(TAG_LOGIC_TOPIC, logicTopic, TAG_CLUSTER, failedCluster).register(registry).increment();
    }

    public void reloaded(boolean applied) {
        Counter.builder(CONFIG_RELOADS).tags(common).tag(TAG_OUTCOME, applied ? "applied" : "rejected").register(registry).increment();
    }

    public void reloadHealthGauge(DoubleSupplier failed) {
        gauges.add(Gauge.builder(CONFIG_LAST_RELOAD_FAILED, failed, DoubleSupplier::getAsDouble).tags(common)
                .strongReference(true).register(registry));
    }

    /** @param stale 1 while the configuration in force is the local snapshot, else 0 */
    public void configStaleGauge(DoubleSupplier stale) {
        gauges.add(Gauge.builder(CONFIG_STALE, stale, DoubleSupplier::getAsDouble).tags(common).strongReference(true).register(registry));
    }

    /** @param revision the source's revision of the configuration in force */
    public void configRevisionGauge(DoubleSupplier revision) {
        gauges.add(Gauge.builder(CONFIG_REVISION, revision, DoubleSupplier::getAsDouble).tags(common).strongReference(true)
                .register(registry));
    }

    /** @param canary 1 while the configuration in force is a canary's candidate, else 0 */
    public void configCanaryGauge(DoubleSupplier canary) {
        gauges.add(Gauge.builder(CONFIG_CANARY, canary, DoubleSupplier::getAsDouble).tags(common).strongReference(true)
                .register(registry));
    }

    public void consumed(String logicTopic, String group, String cluster, ConsumeOutcome outcome, long nanos) {
        ConsumeMeters meters = consumeMeters.computeIfAbsent(new MeterKey(logicTopic, group, cluster), this::consumeMeters);
        meters.outcomes.get(outcome).increment();
        meters.latency.record(nanos, TimeUnit.NANOSECONDS);
    }

    private ConsumeMeters consumeMeters(MeterKey key) {
        // Registered together, so a dashboard sees a group's dead_letter series at 0 before its first dead letter.
        Map<ConsumeOutcome, Counter> outcomes = new EnumMap<>(ConsumeOutcome.class);
        for (ConsumeOutcome outcome : ConsumeOutcome.values()) {
            outcomes.put(outcome, Counter.builder(CONSUMED).tags(common).tags(TAG_LOGIC_TOPIC, key.logicTopic, TAG_GROUP,
                    key.group, TAG_CLUSTER, key.cluster, TAG_OUTCOME, outcome.tag()).register(registry));
        }
        return new ConsumeMeters(outcomes,
                Timer.builder(CONSUME_LATENCY).tags(common).tags(TAG_LOGIC_TOPIC, key.logicTopic, TAG_GROUP, key.group,
                        TAG_CLUSTER, key.cluster).publishPercentileHistogram().register(registry));
    }

    /**
     * Registers the connected gauge of one PROXY-mode consumer, tagged with its {@code consumer} id: while
     * a switch replaces it, the old and the new consumer of a group each report their own. The caller
     * removes it with {@link #remove(Meter)} when that consumer stops.
     */
    public Meter proxyConnectedGauge(String logicTopic, String group, String consumer, DoubleSupplier connected) {
        return gauge(Gauge.builder(PROXY_CONNECTED, connected, DoubleSupplier::getAsDouble).tags(common)
                .tags(TAG_LOGIC_TOPIC, logicTopic, TAG_GROUP, group, TAG_CONSUMER, consumer));
    }

    /**
     * Registers the {@link #CONSUMER_MODE} gauges of one subscription, one per mode, reading {@code mode} (null while it
     * has not started). The caller removes them with {@link #remove(Meter)} when the subscription closes.
     */
    public List<Meter> consumerModeGauges(String logicTopic, String group, String subscription, Supplier<ConsumptionMode> mode) {
        List<Meter> registered = new ArrayList<>();
        for (ConsumptionMode each : ConsumptionMode.values()) {
            registered.add(gauge(Gauge.builder(CONSUMER_MODE, () -> mode.get() == each ? 1 : 0).tags(common)
                    .tags(TAG_LOGIC_TOPIC, logicTopic, TAG_GROUP, group, TAG_SUBSCRIPTION, subscription,
                            TAG_MODE, each.name().toLowerCase(Locale.ROOT))));
        }
        return registered;
    }

    /** Registers the {@link #DIRECT_THREADS} gauge of one running cluster consumer; its caller removes it when it stops. */
    public Meter directThreadsGauge(String logicTopic, String group, String subscription, String cluster, String physicalTopic,
                                    int threads) {
        return gauge(Gauge.builder(DIRECT_THREADS, () -> threads).tags(common).tags(TAG_LOGIC_TOPIC, logicTopic, TAG_GROUP, group,
                TAG_SUBSCRIPTION, subscription, TAG_CLUSTER, cluster, TAG_PHYSICAL_TOPIC, physicalTopic));
    }

    /** Registers the {@link #DIRECT_DRAINING} gauge of one subscription's DIRECT consumption; its caller removes it when it stops. */
    public Meter directDrainingGauge(String logicTopic, String group, String subscription, IntSupplier drainingClusters) {
        return gauge(Gauge.builder(DIRECT_DRAINING, drainingClusters::getAsInt).tags(common)
                .tags(TAG_LOGIC_TOPIC, logicTopic, TAG_GROUP, group, TAG_SUBSCRIPTION, subscription));
    }

    /** Registers the {@link #CONSUMER_LAG} gauge of one running cluster consumer, reading {@code lag}; its caller removes it when it stops. */
    public Meter consumerLagGauge(String logicTopic, String group, String subscription, String cluster, DoubleSupplier lag) {
        return gauge(Gauge.builder(CONSUMER_LAG, lag, DoubleSupplier::getAsDouble).tags(common).tags(TAG_LOGIC_TOPIC, logicTopic,
                TAG_GROUP, group, TAG_SUBSCRIPTION, subscription, TAG_CLUSTER, cluster));
    }

    private Meter gauge(Gauge.Builder<?> builder) {
        Meter gauge = builder.strongReference(true).register(registry);
        gauges.add(gauge);
        return gauge;
    }

    /** What became of a message a lane-aware consumer placed. */
    public enum LaneOutcome {
        /** Consumed here: this instance's lane is the most specific live one on the message's path. */
        LOCAL,
        /** Forwarded to a member of another lane, which answered. */
        FORWARDED,
        /** A forward that got no answer; the message was routed again. */
        FORWARD_FAILED,
        /** No live lane on the message's path; retried later. */
        UNROUTABLE,
        /** The lane has members, but each failed a forward lately; retried later rather than fallen back from. */
        UNREACHABLE,
        /** Counted by the member a message was forwarded to. */
        RECEIVED;

        /** The {@code outcome} tag value. */
        public String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** How a back-off's delay is kept: the {@value #TAG_PATH} of {@link #RETRY_BACKOFFS}. */
    public enum RetryPath {
        /** DIRECT, unordered: RocketMQ's retry topic, at the delay level nearest the back-off's delay. */
        DELAY_LEVEL,
        /** DIRECT, ordered: the message's queue pauses for exactly the delay. */
        QUEUE_PAUSE,
        /** PROXY: the consumer proxy waits exactly the delay (in memory, or as a timer message on the broker). */
        PROXY;

        /** The {@code path} tag value. */
        public String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Counts one retry scheduled with a back-off, by the path that keeps its delay. */
    public void retryBackoff(String logicTopic, String group, RetryPath path) {
        Counter.builder(RETRY_BACKOFFS).tags(common).tags(TAG_LOGIC_TOPIC, logicTopic, TAG_GROUP, group, TAG_PATH, path.tag())
                .register(registry).increment();
    }

    /** What became of a message handed to a listener: the {@value #TAG_OUTCOME} of {@link #CONSUMED}. */
    public enum ConsumeOutcome {
        /** Processed and acknowledged. */
        SUCCESS,
        /** Not processed; delivered again later. */
        RETRY,
        /** Sent to the group's dead-letter topic: rejected by the listener, or failed at its last attempt. */
        DEAD_LETTER;

        /** The {@code outcome} tag value. */
        public String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Looked up once per subscription: it counts on the consume path. */
    public Counter duplicatesDropped(String logicTopic, String group) {
        return Counter.builder(DUPLICATES_DROPPED).tags(common).tags(TAG_LOGIC_TOPIC, logicTopic, TAG_GROUP, group)
                .register(registry);
    }

    /** A failed call of {@code operation} (claim, done, release) to the group's shared deduplication store. */
    public Counter dedupStoreFailures(String logicTopic, String group, String operation) {
        return Counter.builder(DEDUP_STORE_FAILURES).tags(common)
                .tags(TAG_LOGIC_TOPIC, logicTopic, TAG_GROUP, group, TAG_OPERATION, operation).register(registry);
    }

    public void laneRouted(String group, LaneOutcome outcome) {
        Counter.builder(LANE_ROUTED).tags(common).tags(TAG_GROUP, group, TAG_OUTCOME, outcome.tag()).register(registry).increment();
    }

    public void attachAttempt(String group, String cluster, AttachOutcome outcome) {
        Counter.builder(CONSUMER_ATTACH_ATTEMPTS).tags(common).tags(TAG_GROUP, group, TAG_CLUSTER, cluster,
                TAG_OUTCOME, outcome.tagValue()).register(registry).increment();
    }

    public void producerStartAttempt(String group, String cluster, AttachOutcome outcome) {
        Counter.builder(PRODUCER_START_ATTEMPTS).tags(common).tags(TAG_GROUP, group, TAG_CLUSTER, cluster,
                TAG_OUTCOME, outcome.tagValue()).register(registry).increment();
    }

    /** The outcomes of a service's {@link AttachLoop} of {@code group} on {@code cluster}, counted as above. */
    public AttachLoop.Outcomes attachOutcomes(String group, String cluster) {
        return new AttachLoop.Outcomes() {
            @Override
            public void attached() {
                attachAttempt(group, cluster, AttachOutcome.ATTACHED);
            }

            @Override
            public void failed(Exception failure, boolean curable) {
                attachAttempt(group, cluster, curable ? AttachOutcome.UNREACHABLE : AttachOutcome.REFUSED);
            }
        };
    }

    /** How an attach attempt ended, as its {@link #TAG_OUTCOME} tag says. */
    public enum AttachOutcome {
        ATTACHED,
        UNREACHABLE,
        REFUSED;

        public String tagValue() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public void proxyStreamEnded(String logicTopic, String group, String status) {
        Counter.builder(PROXY_STREAM_ENDS).tags(common).tags(TAG_LOGIC_TOPIC, logicTopic, TAG_GROUP, group, TAG_STATUS, status)
                .register(registry).increment();
    }

    /** Removes one gauge this class registered. */
    public void remove(Meter gauge) {
        gauges.remove(gauge);
        registry.remove(gauge);
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** Removes the gauges that read this client's state; counters and timers stay as history. */
    public void removeGauges() {
        gauges.forEach(registry::remove);
        gauges.clear();
    }

    private static String outcome(boolean success) {
        return success ? "success" : "failure";
    }

    /** Where a message went; {@code group} is null for sends. */
    private record MeterKey(String logicTopic, String group, String cluster) {
    }

    /** What kind of traffic a send was, as its {@link #TAG_TRAFFIC} tag says. */
    public enum Traffic {
        PRODUCTION,
        /** Stress-test traffic, sent to shadow topics. */
        STRESS;

        public String tagValue() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private record SendKey(String logicTopic, String cluster, boolean stressTest) {
    }

    private record SendMeters(Counter succeeded, Counter failed, Timer latency) {
    }

    private record ConsumeMeters(Map<ConsumeOutcome, Counter> outcomes, Timer latency) {
    }
}
