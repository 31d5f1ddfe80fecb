package io.lanemq.core.internal.consume;

import io.lanemq.core.internal.consume.listener.ListenerAdapter;
import io.lanemq.api.MessageListener;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Subscription;
import io.lanemq.api.spi.BoundConsumer;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.api.spi.MessagingBinding;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.TopicRoute;
import io.lanemq.core.metrics.SdkMetrics;
import io.micrometer.core.instrument.Meter;
import io.lanemq.support.NamedThreads;
import io.lanemq.support.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DIRECT consumption: one consumer per route of the logic topic, so every cluster (IDC) of the
 * topic is consumed at all times, whatever its send weight. Losing one IDC leaves the others
 * consuming; the lost one's consumer resumes by itself when its brokers return.
 *
 * <p>On a configuration change, only the per-cluster consumers whose spec changed are rebuilt.
 * Same physical topic (thread count, delivery attempts...): the old one is closed first, which
 * finishes its in-flight messages and commits their offsets, then the new one starts from the
 * committed offsets of the same group. New physical topic: the new consumer subscribes to the new
 * topic AND the old one (every member of a RocketMQ-style group must subscribe alike, so a
 * separate old-topic consumer in the same group would be refused its pulls), and once the group's
 * backlog on the old topic is zero after a grace period (sends in flight at the switch land
 * there) it restarts on the new topic alone. Nothing is lost; a message whose offset was not yet
 * committed may be delivered again (at least once). A topic that takes stress-test traffic also
 * subscribes each route's shadow topic; a shadow topic the change leaves is drained the same way.
 *
 * <p>Each cluster's lag ({@link SdkMetrics#CONSUMER_LAG}: what the group has not committed there, over every topic its
 * consumer reads) is asked of the brokers on a thread of this consumption's own, every {@code lagEvery}, and kept for
 * the gauge: a scrape reads the last answer and never waits for a broker, and a broker that does not answer holds up
 * neither consumption nor drains (only the next lag refresh).
 */
final class DirectConsumption implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DirectConsumption.class);
    private static final Executor DRAIN_CHECKS = CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS);
    /** How often each cluster's lag is asked: a call or two per queue of each topic, for one gauge a scrape reads. */
    static final Duration LAG_EVERY = Duration.ofSeconds(10);

    private final Subscription subscription;
    /** The subscription's id on this consumption's gauges. */
    private final String subscriptionId;
    private final MessageListener listener;
    private final MessagingBinding binding;
    private final SdkMetrics metrics;
    private final Meter drainingGauge;
    private final Ticker ticker;
    /** Asks the clusters for the group's lag; shut down on close. */
    private final ScheduledExecutorService lagRefresh;
    private boolean closed;
    /** Per cluster: the spec it runs with (drained topics included) and the running consumer. Guarded by {@code this}. */
    private final Map<String, Running> perCluster = new LinkedHashMap<>();
    /** How many of {@link #perCluster} still drain a topic; written under the lock, read by the gauge without it. */
    private volatile int drainingClusters;

    private DirectConsumption(Subscription subscription, String subscriptionId, MessageListener listener, MessagingBinding binding,
                              SdkMetrics metrics, Ticker ticker) {
        this.subscription = subscription;
        this.subscriptionId = subscriptionId;
        this.listener = listener;
        this.binding = binding;
        this.metrics = metrics;
        this.drainingGauge = metrics.directDrainingGauge(subscription.logicTopic(), subscription.consumerGroup(), subscriptionId,
                () -> drainingClusters);
        this.ticker = ticker;
        this.lagRefresh = Executors.newSingleThreadScheduledExecutor(NamedThreads.single(
                NamedThreads.name("lanemq-consumer-lag", subscription.consumerGroup(), subscriptionId)));
    }

    /**
     * The bound consumer specs of a DIRECT group, by cluster; each member joins with {@code memberTag}, if any.
     * {@code settings.threads()} (or the subscription's own) is the consumer's total: split over the routes
     * (see {@link #threadsPerCluster}), so a topic on two clusters does not run twice the threads it was given.
     */
    static Map<String, BoundConsumerSpec> plan(Subscription subscription, LogicTopicConfig topic, ConsumerConfig settings,
                                               PlatformConfig config, Optional<String> memberTag) {
        Map<String, BoundConsumerSpec> plan = new LinkedHashMap<>();
        int totalThreads = subscription.threads().orElse(settings.threads());
        int maxDeliveryAttempts = subscription.maxDeliveryAttempts().orElse(settings.maxDeliveryAttempts());
        List<TopicRoute> routes = topic.routes();
        for (int i = 0; i < routes.size(); i++) {
            TopicRoute route = routes.get(i);
            BoundConsumerSpec.Builder spec = BoundConsumerSpec.builder(config.cluster(route.cluster()).endpoint(),
                            config.physicalGroup(subscription.consumerGroup()), route.physicalTopic())
                    .tagFilter(subscription.tagFilter()).ordered(subscription.ordered())
                    .consumeThreads(threadsPerCluster(totalThreads, routes.size(), i)).maxDeliveryAttempts(maxDeliveryAttempts)
                    .startPosition(BoundConsumerSpec.StartPosition.valueOf(settings.startPosition().name()))
                    .batchSize(settings.batchSize());
            memberTag.ifPresent(spec::memberTag);
            plan.put(route.cluster(), spec.build());
        }
        if (topic.stressTest()) {
            // Stress-test traffic lives on each route's shadow topic: the same group and listener consume it there.
            topic.routes().forEach(route -> plan.computeIfPresent(route.cluster(),
                    (cluster, spec) -> spec.withShadowTopics(List.of(config.shadowTopic(route)))));
        }
        return plan;
    }

    /**
     * Route {@code index}'s share of {@code total} threads over {@code routes} routes: as even as it can be, the
     * first routes taking the remainder, so the shares add up to the total. Every consumed cluster needs one
     * thread at least, so a total below the route count gives each route one (and the total is the route count).
     */
    static int threadsPerCluster(int total, int routes, int index) {
        return Math.max(1, total / routes + (index < total % routes ? 1 : 0));
    }

    /**
     * Subscribes on every cluster of the plan, and asks each for the group's lag at once and every {@code lagEvery}
     * after; on failure nothing is left running.
     */
    static DirectConsumption start(Subscription subscription, String subscriptionId, MessageListener listener,
                                   MessagingBinding binding, SdkMetrics metrics, Ticker ticker, Map<String, BoundConsumerSpec> plan,
                                   Duration lagEvery) throws MessagingException {
        DirectConsumption direct = new DirectConsumption(subscription, subscriptionId, listener, binding, metrics, ticker);
        synchronized (direct) {
            try {
                for (BoundConsumerSpec spec : plan.values()) {
                    direct.startOne(spec);
                }
            } catch (MessagingException | RuntimeException e) {
                direct.close();
                throw e;
            }
            direct.lagRefresh.scheduleWithFixedDelay(direct::refreshLag, 0, lagEvery.toNanos(), TimeUnit.NANOSECONDS);
        }
        return direct;
    }

    private void startOne(BoundConsumerSpec spec) throws MessagingException {
        String cluster = spec.cluster().clusterName();
        BoundConsumer started = binding.createConsumer(spec,
                new ListenerAdapter(subscription.logicTopic(), subscription.consumerGroup(), cluster, listener, metrics, ticker,
                        spec.maxDeliveryAttempts()));
        ClusterLag lag = new ClusterLag();
        perCluster.put(cluster, new Running(spec, started, metrics.directThreadsGauge(subscription.logicTopic(),
                subscription.consumerGroup(), subscriptionId, cluster, spec.topic(), spec.consumeThreads()), lag,
                metrics.consumerLagGauge(subscription.logicTopic(), subscription.consumerGroup(), subscriptionId, cluster,
                        () -> lag.messages)));
        countDraining();
    }

    /** Closes a cluster's consumer, which finishes its in-flight messages and commits their offsets. */
    private void stopOne(String cluster) {
        Running running = perCluster.remove(cluster);
        running.consumer.close();
        metrics.remove(running.threadsGauge);
        metrics.remove(running.lagGauge);
        countDraining();
    }

    private void countDraining() {
        drainingClusters = (int) perCluster.values().stream().filter(running -> !running.spec.drainTopics().isEmpty()).count();
    }

    /** Rebuilds the clusters whose spec changed; {@code grace} is how long sends in flight at a topic move may take to land. */
    synchronized void apply(Map<String, BoundConsumerSpec> plan, Duration grace) {
        if (closed) {
            return;
        }
        for (String cluster : new ArrayList<>(perCluster.keySet())) {
            Running running = perCluster.get(cluster);
            BoundConsumerSpec wanted = plan.get(cluster);
            if (running.spec.draining(List.of()).equals(wanted)) {
                continue;
            }
            stopOne(cluster);
            if (wanted != null) {
                // The topic it leaves still holds messages, and sends in flight at the switch land there too.
                List<String> drain = new ArrayList<>(running.spec.drainTopics());
                drain.add(running.spec.topic());
                drain.addAll(running.spec.shadowTopics());
                drain.remove(wanted.topic());
                drain.removeAll(wanted.shadowTopics());
                restart(wanted.draining(drain.stream().distinct().toList()), grace);
            }
        }
        for (BoundConsumerSpec spec : plan.values()) {
            if (!perCluster.containsKey(spec.cluster().clusterName())) {
                restart(spec, grace);
            }
        }
    }

    private void restart(BoundConsumerSpec spec, Duration grace) {
        try {
            startOne(spec);
            // Its lag gauge is new and unknown: ask now rather than at the next round.
            lagRefresh.execute(this::refreshLag);
            if (!spec.drainTopics().isEmpty()) {
                checkDrained(spec.cluster().clusterName(), ticker.read() + grace.toNanos());
            }
        } catch (MessagingException | RuntimeException e) {
            // Its messages wait in the broker; the next change (or a restart) starts it.
            log.error("could not start the consumer of {} on {} after a configuration change", subscription,
                    spec.cluster().clusterName(), e);
        }
    }

    /**
     * Once the grace has passed and the group's backlog on every drained topic is zero, restarts
     * the cluster's consumer on its current topic alone; until then checks again every second.
     * An unknown backlog keeps it draining.
     */
    private void checkDrained(String cluster, long notBefore) {
        DRAIN_CHECKS.execute(() -> {
            synchronized (this) {
                Running running = perCluster.get(cluster);
                if (closed || running == null || running.spec.drainTopics().isEmpty()) {
                    return;
                }
                boolean drained = ticker.read() - notBefore >= 0 && running.spec.drainTopics().stream()
                        .allMatch(topic -> running.consumer.backlog(topic).orElse(-1) == 0);
                if (!drained) {
                    checkDrained(cluster, notBefore);
                    return;
                }
                stopOne(cluster);
                restart(running.spec.draining(List.of()), Duration.ZERO);
                log.info("consumer of {} on {} drained {}; consuming {} alone", subscription, cluster,
                        running.spec.drainTopics(), running.spec.topic());
            }
        });
    }

    /**
     * The member tags of the group's live members, as all clusters together see them; empty when no
     * cluster can tell now. A member shows on the clusters it is connected to, so one IDC down hides nobody.
     */
    Optional<List<String>> memberTags() {
        List<BoundConsumer> consumers;
        synchronized (this) {
            consumers = perCluster.values().stream().map(Running::consumer).toList();
        }
        // Outside the lock: each cluster's answer is a call to its brokers.
        Set<String> tags = new LinkedHashSet<>();
        boolean known = false;
        for (BoundConsumer consumer : consumers) {
            Optional<List<String>> seen = consumer.memberTags();
            if (seen.isPresent()) {
                known = true;
                tags.addAll(seen.get());
            }
        }
        return known ? Optional.of(List.copyOf(tags)) : Optional.empty();
    }

    /**
     * Asks each running cluster consumer for the group's backlog on every topic it reads, for its lag gauge. A cluster
     * that cannot tell for one of them shows NaN until it can: unknown, not 0.
     */
    private void refreshLag() {
        List<Running> running;
        synchronized (this) {
            if (closed) {
                return;
            }
            running = List.copyOf(perCluster.values());
        }
        // Outside the lock: each answer is a call per queue to the cluster's brokers, and the drain checks need the lock.
        for (Running each : running) {
            try {
                each.lag.messages = lagOf(each);
            } catch (RuntimeException e) {
                // Caught, or the executor would silently stop refreshing every cluster.
                each.lag.messages = Double.NaN;
                log.debug("lag of {} on {} unknown", subscription, each.spec.cluster().clusterName(), e);
            }
        }
    }

    private static double lagOf(Running running) {
        Set<String> topics = new LinkedHashSet<>();
        topics.add(running.spec.topic());
        topics.addAll(running.spec.shadowTopics());
        topics.addAll(running.spec.drainTopics());
        long total = 0;
        for (String topic : topics) {
            OptionalLong backlog = running.consumer.backlog(topic);
            if (backlog.isEmpty()) {
                return Double.NaN;
            }
            total += backlog.getAsLong();
        }
        return total;
    }

    /** Closes every cluster's consumer: each finishes its in-flight messages and commits their offsets. */
    @Override
    public synchronized void close() {
        closed = true;
        // Interrupts a refresh waiting on a broker; not awaited, since one still running only writes to gauges removed here.
        lagRefresh.shutdownNow();
        new ArrayList<>(perCluster.keySet()).forEach(this::stopOne);
        metrics.remove(drainingGauge);
    }

    private record Running(BoundConsumerSpec spec, BoundConsumer consumer, Meter threadsGauge, ClusterLag lag, Meter lagGauge) {
    }

    /** One cluster consumer's lag as last asked: written by the refresh thread, read by its gauge. */
    private static final class ClusterLag {
        volatile double messages = Double.NaN;
    }
}
