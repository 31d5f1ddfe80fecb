package io.lanemq.core.internal.consume.attach;

import io.lanemq.api.ClientHealth;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.UnknownTopicException;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.LogThrottle;
import io.lanemq.support.Ticker;
import io.lanemq.support.attach.AttachPolicy;
import io.lanemq.support.attach.AttemptBudget;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client's record of the consumers not attached to a cluster and the producers not started on one, and why: their
 * part of the client's health (a cluster with a consumer that could not attach or a producer that could not start is
 * DOWN, with the reason), the {@link SdkMetrics#CONSUMER_ATTACH_ATTEMPTS} and {@link SdkMetrics#PRODUCER_START_ATTEMPTS}
 * meters, a throttled log line per cluster and cause, and the budget that
 * bounds the client's attach attempts per second over all its subscriptions, so that many of them restarting at once
 * do not hammer a cluster that has just come back ({@link AttemptBudget}, shared with the services). Thread-safe.
 */
public final class ClusterAttachments {
    private static final Logger log = LoggerFactory.getLogger(ClusterAttachments.class);
    /** How many consumers a cluster's health reason names before it only counts the rest. */
    private static final int NAMED_IN_REASON = 3;

    private final AttachPolicy policy;
    private final SdkMetrics metrics;
    private final AttemptBudget budget;
    private final InstantSource wallClock;
    private final LogThrottle logs;
    private final Map<Key, Detached> detached = new ConcurrentHashMap<>();
    /** The clusters whose access points accepted no connection at the last check, and what the binding said. */
    private final Map<String, String> unreachable = new ConcurrentHashMap<>();
    /** The consumers attached now, per cluster: evidence that a cluster no send has judged yet is reachable. */
    private final Set<Key> attachedNow = ConcurrentHashMap.newKeySet();

    public ClusterAttachments(AttachPolicy policy, SdkMetrics metrics, Ticker ticker, InstantSource wallClock) {
        this.policy = policy;
        this.metrics = metrics;
        this.budget = new AttemptBudget(policy, ticker);
        this.wallClock = wallClock;
        this.logs = LogThrottle.every(Duration.ofMinutes(1), ticker);
    }

    public AttachPolicy policy() {
        return policy;
    }

    /** Whether waiting may cure {@code failure}: false for refused keys, an absent topic or group, a bad setting. */
    public static boolean curable(MessagingException failure) {
        return !(failure instanceof InvalidConfigurationException || failure instanceof UnknownTopicException);
    }

    /**
     * Reserves one attach attempt: 0 when it may start now, else the nanoseconds to wait before it starts (the slot is
     * reserved; the caller does not ask again).
     */
    public long reserve() {
        return budget.reserve();
    }

    /** The delay before the next attempt on a cluster, after {@code failures} failed attempts in a row, the last one {@code failure}. */
    public Duration retryDelay(int failures, MessagingException failure) {
        return (curable(failure) ? policy.unreachable() : policy.refused()).delay(failures);
    }

    /** {@code consumer} ({@code consumer group 'g' of logic topic t}) could not attach to {@code cluster}: counted, logged (throttled), in health until it does. */
    public void failed(String cluster, String consumer, String group, MessagingException failure) {
        metrics.attachAttempt(group, cluster, outcome(failure));
        record(cluster, consumer, failure);
    }

    /**
     * {@code producer} ({@code producer group 'g'}) could not start on {@code cluster}: counted in
     * {@link SdkMetrics#PRODUCER_START_ATTEMPTS}, logged (throttled), in health until it starts there.
     */
    public void producerFailed(String cluster, String producer, String group, MessagingException failure) {
        metrics.producerStartAttempt(group, cluster, outcome(failure));
        record(cluster, producer, failure);
    }

    private static SdkMetrics.AttachOutcome outcome(MessagingException failure) {
        return curable(failure) ? SdkMetrics.AttachOutcome.UNREACHABLE : SdkMetrics.AttachOutcome.REFUSED;
    }

    private void record(String cluster, String client, MessagingException failure) {
        boolean curable = curable(failure);
        Key key = new Key(cluster, client);
        attachedNow.remove(key);
        Instant since = Optional.ofNullable(detached.get(key)).map(Detached::since).orElseGet(wallClock::instant);
        detached.put(key, new Detached(failure.getMessage(), curable, since));
        // One line a minute per cluster and cause kind: an outage of many subscriptions does not flood the log.
        logs.warn(log, cluster + (curable ? "/unreachable" : "/refused"), "{} not attached to cluster {} since {} ({}); "
                        + "retrying {}: {}", client, cluster, since, curable ? "not reachable" : "refused",
                curable ? "in the background" : "slowly", failure.getMessage());
    }

    /**
     * {@code consumer}'s first attempt on {@code cluster} has not answered within the start's wait (a silent network
     * holds a connect for seconds): in health from now, not only once the attempt fails.
     */
    public void unanswered(String cluster, String consumer, Duration within) {
        String known = unreachable.get(cluster);
        String reason = known != null ? "its first attempt has not answered, and its name servers accepted no connection: "
                + known : "its first attempt has not answered within " + within.toMillis()
                + " ms (the cluster is slow, silent or unreachable)";
        detached.putIfAbsent(new Key(cluster, consumer), new Detached(reason, true, wallClock.instant()));
    }

    /**
     * The result of asking every cluster whether its access points accept a connection ({@code checked}; those in
     * {@code failed} did not, with why): a subscription starting does not wait for its first attempt on a cluster
     * known unreachable, which would hold the application's start for the whole start wait.
     */
    public void reachability(Set<String> checked, Map<String, String> failed) {
        checked.forEach(cluster -> {
            if (failed.containsKey(cluster)) {
                unreachable.put(cluster, failed.get(cluster));
            } else {
                unreachable.remove(cluster);
            }
        });
    }

    /** Whether {@code cluster}'s access points accepted no connection at the last check, and nothing attached since. */
    public boolean knownUnreachable(String cluster) {
        return unreachable.containsKey(cluster);
    }

    /** {@code consumer} attached to {@code cluster}. */
    public void attached(String cluster, String consumer, String group) {
        unreachable.remove(cluster);
        metrics.attachAttempt(group, cluster, SdkMetrics.AttachOutcome.ATTACHED);
        attachedNow.add(new Key(cluster, consumer));
        recovered(cluster, consumer);
    }

    /**
     * {@code producer} started on {@code cluster}: counted, and out of health if it had failed there. Not evidence that
     * the cluster is reachable (a producer's start may ask nothing of it): its sends judge that.
     */
    public void producerStarted(String cluster, String producer, String group) {
        metrics.producerStartAttempt(group, cluster, SdkMetrics.AttachOutcome.ATTACHED);
        recovered(cluster, producer);
    }

    private void recovered(String cluster, String client) {
        Detached was = detached.remove(new Key(cluster, client));
        if (was != null) {
            log.info("{} attached to cluster {}, detached since {}", client, cluster, was.since);
        }
    }

    /** {@code consumer} no longer wants {@code cluster} (closed, or a change took the cluster off its topic). */
    public void forget(String cluster, String consumer) {
        detached.remove(new Key(cluster, consumer));
        attachedNow.remove(new Key(cluster, consumer));
    }

    /** Why {@code consumer} is not attached to {@code cluster}; empty when it is (or never tried). */
    public Optional<String> reason(String cluster, String consumer) {
        return Optional.ofNullable(detached.get(new Key(cluster, consumer))).map(Detached::reason);
    }

    /**
     * The clusters as the sends judge them ({@code bySends}), each one with a consumer not attached to it made DOWN,
     * its reason saying which consumers, since when and why; one no send has judged yet (UNKNOWN) made UP when a
     * consumer is attached to it and none failed to: a consumer's start reached its name server and brokers.
     */
    public List<ClientHealth.Cluster> health(List<ClientHealth.Cluster> bySends) {
        Map<String, List<String>> reasons = new TreeMap<>();
        detached.forEach((key, state) -> reasons.computeIfAbsent(key.cluster, c -> new ArrayList<>())
                .add(key.consumer + " not attached since " + state.since + (state.curable ? " (not reachable): " : " (refused): ")
                        + state.reason));
        List<ClientHealth.Cluster> merged = new ArrayList<>(bySends.size());
        for (ClientHealth.Cluster cluster : bySends) {
            List<String> consumers = reasons.get(cluster.name());
            if (consumers == null) {
                boolean reached = attachedNow.stream().anyMatch(key -> key.cluster.equals(cluster.name()));
                merged.add(reached && cluster.state() == ClientHealth.ClusterState.UNKNOWN
                        ? new ClientHealth.Cluster(cluster.name(), cluster.idc(), ClientHealth.ClusterState.UP, Optional.empty())
                        : cluster);
                continue;
            }
            consumers.sort(null);
            String text = String.join("; ", consumers.subList(0, Math.min(NAMED_IN_REASON, consumers.size())))
                    + (consumers.size() > NAMED_IN_REASON ? "; and " + (consumers.size() - NAMED_IN_REASON) + " more" : "");
            String reason = cluster.state() == ClientHealth.ClusterState.DOWN && cluster.reason().isPresent()
                    ? cluster.reason().get() + "; " + text : text;
            merged.add(new ClientHealth.Cluster(cluster.name(), cluster.idc(), ClientHealth.ClusterState.DOWN, Optional.of(reason)));
        }
        return merged;
    }

    private record Key(String cluster, String consumer) {
    }

    private record Detached(String reason, boolean curable, Instant since) {
    }
}
