package io.lanemq.core.internal.produce;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.TransactionChecker;
import io.lanemq.api.TransactionResolution;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.api.spi.BoundProducer;
import io.lanemq.api.spi.BoundProducerSpec;
import io.lanemq.api.spi.ClusterEndpoint;
import io.lanemq.api.spi.MessagingBinding;
import io.lanemq.api.spi.PhysicalMessage;
import io.lanemq.api.spi.TransactionCheckHandler;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConfigSubscriber;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigRef;
import io.lanemq.config.ProducerConfig;
import io.lanemq.core.internal.consume.attach.ClusterAttachments;
import io.lanemq.core.internal.consume.listener.DeliveredMessage;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.NamedThreads;
import io.lanemq.support.ParallelClose;
import io.lanemq.support.Ticker;
import io.lanemq.support.attach.AttachPolicy;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One bound producer per cluster for one producer group, started up front for every configured
 * cluster so the first send pays no start-up. A cluster whose producer cannot start does not fail
 * the others: it is in the client's health, and started again by the first send routed to it, whose
 * failure moves that send to another cluster. A cluster that refused it (ACL refused, a refused
 * setting: waiting alone does not cure that) is out of the producer's rotation until the refused
 * back-off of the client's attach policy has passed, so that no send waits on it meanwhile; then one
 * send tries it again.
 *
 * <p>A configuration change that alters a cluster's endpoint or the producer settings replaces
 * that cluster's bound producer: new sends use the new one at once, and the old one is closed
 * only after a send timeout has passed, so sends already in flight on it complete normally.
 */
public final class ClusterProducers implements AutoCloseable, ConfigSubscriber {
    private static final Logger log = LoggerFactory.getLogger(ClusterProducers.class);
    /** Beyond the send timeout, so a send that started just before the switch has its answer. */
    private static final Duration RETIRE_MARGIN = Duration.ofSeconds(1);

    private final String producerGroup;
    private final Optional<TransactionChecker> checker;
    private final PlatformConfigRef config;
    private final MessagingBinding binding;
    private final SdkMetrics metrics;
    private final Map<String, Bound> byCluster = new ConcurrentHashMap<>();
    /** The client's record of clusters its producers and consumers are not on: health, meter, throttled log, back-offs. */
    private final ClusterAttachments attachments;
    private final Ticker ticker;
    /** Clusters that refused this group's producer, held out of its rotation until their retry is due. */
    private final Map<String, Refusal> refused = new ConcurrentHashMap<>();

    /** As below, with a record of its own (tests that look at one producer alone). */
    public ClusterProducers(String producerGroup, Optional<TransactionChecker> checker, PlatformConfigRef config,
                            MessagingBinding binding, SdkMetrics metrics) {
        this(producerGroup, checker, config, binding, metrics,
                new ClusterAttachments(AttachPolicy.DEFAULT, metrics, Ticker.system(), InstantSource.system()), Ticker.system());
    }

    /**
     * @param attachments the client's record of clusters not reached: a cluster that refuses this producer shows there
     *                    (health DOWN with the reason), and is tried again at its refused back-off
     * @param ticker      the client's clock, for those retries
     */
    public ClusterProducers(String producerGroup, Optional<TransactionChecker> checker, PlatformConfigRef config,
                            MessagingBinding binding, SdkMetrics metrics, ClusterAttachments attachments, Ticker ticker) {
        this.attachments = attachments;
        this.ticker = ticker;
        this.metrics = metrics;
        this.producerGroup = producerGroup;
        this.checker = checker;
        this.config = config;
        this.binding = binding;
    }

    /** The producer group these producers are of. */
    String producerGroup() {
        return producerGroup;
    }

    /** What the brokers ask about this group's transactions left in doubt; empty when it sends none. */
    Optional<TransactionChecker> transactionChecker() {
        return checker;
    }

    /** A new id for every attempt of one send to carry (see {@link PhysicalMessage#messageId()}). */
    Optional<String> newMessageId() {
        return binding.newMessageId();
    }

    /**
     * Starts a producer on every cluster of the current configuration. Never fails for a cluster that cannot start, not
     * even for every one: in an outage of every cluster the application still starts, and its sends fail naming each
     * cluster and why until one comes back (a team that prefers a failed start sets
     * {@link io.lanemq.api.ClientOptions#requireClusterWithin}).
     *
     * When every cluster refuses for a reason no waiting cures (a misspelt binding property, wrong credentials), the
     * producer could never send, so the start fails with the first refusal, the others suppressed.
     *
     * @return the clusters whose producer did not start, with why
     * @throws InvalidConfigurationException when every cluster refused the producer's configuration
     */
    public Map<String, String> startAll() throws InvalidConfigurationException {
        Map<String, String> failed = new TreeMap<>();
        List<MessagingException> refusals = new ArrayList<>();
        for (String cluster : config.current().clusters().keySet()) {
            try {
                get(cluster);
            } catch (MessagingException e) {
                refusals.add(e);
                // Logged (throttled) and in health through the client's record; a refused cluster is out of rotation.
                failed.put(cluster, e.getMessage());
            }
        }
        if (!refusals.isEmpty() && refusals.size() == config.current().clusters().size()
                && refusals.stream().allMatch(InvalidConfigurationException.class::isInstance)) {
            InvalidConfigurationException first = (InvalidConfigurationException) refusals.get(0);
            refusals.subList(1, refusals.size()).forEach(first::addSuppressed);
            throw first;
        }
        return failed;
    }

    BoundProducer get(String cluster) throws MessagingException {
        return bound(cluster).producer;
    }

    /** The cluster's producer behind its batch gathering: where plain sends go. */
    SendGathering gathering(String cluster) throws MessagingException {
        return bound(cluster).gathering;
    }

    /** The clusters held out of this producer's rotation now (they refused it, and their retry is not due), with why. */
    Map<String, String> outOfRotation() {
        if (refused.isEmpty()) {
            return Map.of();
        }
        long now = ticker.read();
        Map<String, String> held = new java.util.TreeMap<>();
        refused.forEach((cluster, refusal) -> {
            if (now - refusal.retryAt < 0) {
                held.put(cluster, "refused this producer, tried again in "
                        + Duration.ofNanos(refusal.retryAt - now).toSeconds() + " s: " + refusal.failure.getMessage());
            }
        });
        return held;
    }

    private Bound bound(String cluster) throws MessagingException {
        Bound existing = byCluster.get(cluster);
        if (existing != null) {
            return existing;
        }
        synchronized (byCluster) {
            Bound raced = byCluster.get(cluster);
            if (raced != null) {
                return raced;
            }
            Refusal refusal = refused.get(cluster);
            long now = ticker.read();
            if (refusal != null && now - refusal.retryAt < 0) {
                throw new InvalidConfigurationException("cluster '" + cluster + "' refused " + name() + "; tried again in "
                        + Duration.ofNanos(refusal.retryAt - now).toSeconds() + " s: " + refusal.failure.getMessage(),
                        refusal.failure);
            }
            PlatformConfig snapshot = config.current();
            Bound created;
            try {
                created = create(snapshot.cluster(cluster), snapshot.producer());
            } catch (MessagingException e) {
                attachments.producerFailed(cluster, name(), producerGroup, e);
                if (!ClusterAttachments.curable(e)) {
                    int failures = refusal == null ? 1 : refusal.failures + 1;
                    refused.put(cluster, new Refusal(e, failures,
                            ticker.read() + attachments.retryDelay(failures, e).toNanos()));
                }
                throw e;
            }
            refused.remove(cluster);
            attachments.producerStarted(cluster, name(), producerGroup);
            byCluster.put(cluster, created);
            return created;
        }
    }

    /** How this producer is named in health and logs. */
    private String name() {
        return "producer group '" + producerGroup + "'";
    }

    @Override
    public void apply(PlatformConfig previous, PlatformConfig next) {
        synchronized (byCluster) {
            for (Map.Entry<String, Bound> entry : Map.copyOf(byCluster).entrySet()) {
                ClusterConfig cluster = next.clusters().get(entry.getKey());
                Bound current = entry.getValue();
                if (cluster == null) {
                    byCluster.remove(entry.getKey());
                    retire(current, previous.producer().sendTimeout());
                } else if (!current.endpoint.equals(cluster.endpoint()) || bindsDifferently(current.settings, next.producer())) {
                    try {
                        byCluster.put(entry.getKey(), create(cluster, next.producer()));
                        retire(current, previous.producer().sendTimeout());
                    } catch (MessagingException | RuntimeException e) {
                        log.error("could not re-create the producer of group {} on {} after a configuration change; "
                                + "keeping the old one", producerGroup, entry.getKey(), e);
                    }
                }
            }
        }
    }

    /**
     * Whether the bound producer must be made anew for {@code next}: only what it was created from counts. The
     * gathering and held-bytes limit are read at each send, so changing them replaces no connection.
     */
    private static boolean bindsDifferently(ProducerConfig current, ProducerConfig next) {
        return !current.sendTimeout().equals(next.sendTimeout()) || current.maxBodyBytes() != next.maxBodyBytes();
    }

    private Bound create(ClusterConfig cluster, ProducerConfig settings) throws MessagingException {
        Optional<TransactionCheckHandler> handler = checker.map(c -> prepared -> check(c, cluster.name(), prepared));
        BoundProducer producer = binding.createProducer(new BoundProducerSpec(cluster.endpoint(), producerGroup,
                settings.sendTimeout(), settings.maxBodyBytes(), handler));
        return new Bound(cluster.endpoint(), settings, producer, new SendGathering(producer, cluster.name(), metrics));
    }

    private static void retire(Bound old, Duration sendTimeout) {
        CompletableFuture.delayedExecutor(sendTimeout.plus(RETIRE_MARGIN).toMillis(), TimeUnit.MILLISECONDS)
                .execute(old.producer::close);
    }

    private TransactionResolution check(TransactionChecker checker, String cluster, BoundMessage prepared) {
        String logicTopic = config.current().topicOf(cluster, prepared.topic())
                .map(t -> t.name()).orElse(prepared.topic());
        try {
            TransactionResolution resolution = checker.check(new DeliveredMessage(logicTopic, cluster, prepared));
            return resolution == null ? TransactionResolution.UNKNOWN : resolution;
        } catch (RuntimeException e) {
            log.warn("transaction checker failed for message {} [logicTopic={}, cluster={}]; the broker will ask again",
                    prepared.messageId(), logicTopic, cluster, e);
            return TransactionResolution.UNKNOWN;
        }
    }

    @Override
    public void close() {
        synchronized (byCluster) {
            ParallelClose.all(NamedThreads.name("lanemq-producer-close", producerGroup),
                    byCluster.values().stream().map(bound -> (Runnable) bound.producer::close).toList());
            byCluster.clear();
        }
        config.current().clusters().keySet().forEach(cluster -> attachments.forget(cluster, name()));
    }

    /** A cluster's refusal of this producer: what it said, how many times in a row, and when to try it again (ticker). */
    private record Refusal(MessagingException failure, int failures, long retryAt) {
    }

    /** A running bound producer and what it was created from, to tell whether a change concerns it. */
    private record Bound(ClusterEndpoint endpoint, ProducerConfig settings, BoundProducer producer, SendGathering gathering) {
    }
}
