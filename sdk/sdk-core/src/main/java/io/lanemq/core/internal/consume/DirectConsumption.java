package io.lanemq.core.internal.consume;

import io.lanemq.core.internal.consume.listener.ListenerAdapter;
import io.lanemq.core.internal.consume.listener.PauseGate;
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
import io.lanemq.support.attach.AttachPolicy;
import io.lanemq.core.internal.consume.attach.ClusterAttachments;
import io.lanemq.core.metrics.SdkMetrics;
import io.micrometer.core.instrument.Meter;
import io.lanemq.support.NamedThreads;
import io.lanemq.support.ParallelClose;
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
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
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
 * <p><b>Attaching.</b> A cluster that cannot be consumed at the start (down, silent, refusing) stops neither the start
 * nor the other clusters: the start waits {@link AttachPolicy#startWait()} at most for every cluster's first answer,
 * returns with those that attached, and keeps trying the others in the background, on this consumption's own attach
 * threads (a RocketMQ consumer's start blocks 3-7 s on a silent name server), after a jittered back-off, within the
 * client's attempt budget (see {@link ClusterAttachments}), until they attach. A cluster whose consumer could not be
 * rebuilt after a configuration change is attached the same way. Until it attaches, the client's health shows the
 * cluster DOWN with the reason.
 *
 * <p>Each cluster's lag ({@link SdkMetrics#CONSUMER_LAG}: what the group has not committed there, over every topic its
 * consumer reads) is asked of the brokers on a thread of this consumption's own, every {@code lagEvery}, and kept for
 * the gauge: a scrape reads the last answer and never waits for a broker, and a broker that does not answer holds up
 * neither consumption nor drains (only the next lag refresh).
 *
 * <p><b>Pausing.</b> Every cluster's consumer stops fetching (one attached or rebuilt while paused starts so), and its
 * messages pass the subscription's {@link PauseGate}, which holds what a fetch under way still brings.
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
    /** Runs the attach attempts of clusters not attached yet; shut down on close. */
    private final ScheduledExecutorService attach;
    private final ClusterAttachments attachments;
    /** The subscription's pause; what every cluster's messages pass before the listener. */
    private final PauseGate gate;
    /** How this consumption names itself in health and logs. */
    private final String owner;
    private boolean closed;
    /** Per cluster not attached: the spec it should run with and its attempts so far. Guarded by {@code this}. */
    private final Map<String, Pending> pending = new LinkedHashMap<>();
    /** Per cluster: the spec it runs with (drained topics included) and the running consumer. Guarded by {@code this}. */
    private final Map<String, Running> perCluster = new LinkedHashMap<>();
    /** How many of {@link #perCluster} still drain a topic; written under the lock, read by the gauge without it. */
    private volatile int drainingClusters;

    private DirectConsumption(Subscription subscription, String subscriptionId, MessageListener listener,
                              ConsumerContext context, PauseGate gate) {
        MessagingBinding binding = context.binding();
        SdkMetrics metrics = context.metrics();
        this.attachments = context.attachments();
        this.gate = gate;
        this.owner = "consumer group '" + subscription.consumerGroup() + "' of logic topic " + subscription.logicTopic()
                + " (subscription " + subscriptionId + ")";
        this.subscription = subscription;
        this.subscriptionId = subscriptionId;
        this.listener = listener;
        this.binding = binding;
        this.metrics = metrics;
        this.drainingGauge = metrics.directDrainingGauge(subscription.logicTopic(), subscription.consumerGroup(), subscriptionId,
                () -> drainingClusters);
        this.ticker = context.ticker();
        this.lagRefresh = Executors.newSingleThreadScheduledExecutor(NamedThreads.single(
                NamedThreads.name("lanemq-consumer-lag", subscription.consumerGroup(), subscriptionId)));
        // One thread per cluster of a two-IDC topic: each may block in a start for seconds, neither waits for the other.
        ScheduledThreadPoolExecutor attachThreads = new ScheduledThreadPoolExecutor(2,
                NamedThreads.numbered(NamedThreads.name("lanemq-consumer-attach", subscription.consumerGroup(), subscriptionId)));
        attachThreads.setRemoveOnCancelPolicy(true);
        this.attach = attachThreads;
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
            subscription.retryBackoff().ifPresent(spec::retryBackoff);
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

    /** As below, with a record of attachments of its own on the default policy (tests). */
    static DirectConsumption start(Subscription subscription, String subscriptionId, MessageListener listener,
                                   MessagingBinding binding, SdkMetrics metrics, Ticker ticker, Map<String, BoundConsumerSpec> plan,
                                   Duration lagEvery) throws MessagingException {
        return start(subscription, subscriptionId, listener, binding, metrics, ticker, plan, lagEvery,
                new ClusterAttachments(AttachPolicy.DEFAULT, metrics, ticker, java.time.InstantSource.system()), new PauseGate());
    }

    /**
     * Subscribes on every cluster of the plan, and asks each for the group's lag at once and every {@code lagEvery}
     * after. Returns once every cluster has answered its first attempt, or after {@link AttachPolicy#startWait()}:
     * clusters not attached by then are attached in the background. Fails, leaving nothing running, only when the
     * policy requires a cluster within a time and none attached by then.
     */
    static DirectConsumption start(Subscription subscription, String subscriptionId, MessageListener listener,
                                   MessagingBinding binding, SdkMetrics metrics, Ticker ticker, Map<String, BoundConsumerSpec> plan,
                                   Duration lagEvery, ClusterAttachments attachments, PauseGate gate) throws MessagingException {
        DirectConsumption direct = new DirectConsumption(subscription, subscriptionId, listener,
                new ConsumerContext(binding, metrics, ticker, attachments), gate);
        try {
            synchronized (direct) {
                for (BoundConsumerSpec spec : plan.values()) {
                    direct.attachLater(spec, Duration.ZERO);
                }
                direct.lagRefresh.scheduleWithFixedDelay(direct::refreshLag, 0, lagEvery.toNanos(), TimeUnit.NANOSECONDS);
                direct.awaitStart();
            }
        } catch (MessagingException | RuntimeException e) {
            direct.close();
            throw e;
        }
        return direct;
    }

    /** Waits (holding the lock, which {@code wait} gives up) for the start's attempts, as {@link #start} says. */
    private void awaitStart() throws MessagingException {
        AttachPolicy policy = attachments.policy();
        long begin = ticker.read();
        // A cluster whose name servers refused the client's last check would only answer when its attempt times out.
        waitUntil(() -> pending.entrySet().stream().allMatch(entry -> entry.getValue().answered()
                || attachments.knownUnreachable(entry.getKey())), begin + policy.startWait().toNanos());
        pending.forEach((cluster, state) -> {
            if (!state.answered()) {
                attachments.unanswered(cluster, owner, policy.startWait());
            }
        });
        if (policy.requireClusterWithin().isPresent()) {
            Duration within = policy.requireClusterWithin().get();
            waitUntil(() -> !perCluster.isEmpty() || pending.isEmpty(), begin + within.toNanos());
            if (perCluster.isEmpty() && !pending.isEmpty()) {
                StringBuilder why = new StringBuilder();
                pending.forEach((cluster, state) -> why.append(why.length() == 0 ? "" : "; ").append(cluster).append(": ")
                        .append(attachments.reason(cluster, owner).orElse("no answer yet")));
                throw new MessagingException(owner + " attached to no cluster within " + within.toMillis()
                        + " ms (required by requireClusterWithin): " + why, subscription.logicTopic(), null);
            }
        }
    }

    private void waitUntil(java.util.function.BooleanSupplier done, long deadline) {
        while (!done.getAsBoolean()) {
            long left = deadline - ticker.read();
            if (left <= 0) {
                return;
            }
            try {
                wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Leaves {@code spec}'s cluster to the attach threads, first attempt after {@code delay}; called holding the lock. */
    private void attachLater(BoundConsumerSpec spec, Duration grace) {
        String cluster = spec.cluster().clusterName();
        Pending state = pending.computeIfAbsent(cluster, c -> new Pending());
        state.spec = spec;
        state.grace = grace;
        if (!state.inFlight) {
            schedule(cluster, state, 0);
        }
    }

    private void schedule(String cluster, Pending state, long delayNanos) {
        if (state.next != null) {
            state.next.cancel(false);
        }
        state.next = attach.schedule(() -> attempt(cluster), delayNanos, TimeUnit.NANOSECONDS);
    }

    /** One attach attempt of {@code cluster}, on an attach thread: the binding's start may block for seconds. */
    private void attempt(String cluster) {
        BoundConsumerSpec spec;
        synchronized (this) {
            Pending state = pending.get(cluster);
            if (closed || state == null) {
                return;
            }
            long wait = attachments.reserve();
            if (wait > 0) {
                state.next = attach.schedule(() -> attempt(cluster), wait, TimeUnit.NANOSECONDS);
                return;
            }
            spec = state.spec;
            state.inFlight = true;
        }
        BoundConsumer started = null;
        MessagingException failure = null;
        try {
            started = startConsumer(spec);
        } catch (MessagingException e) {
            failure = e;
        } catch (RuntimeException e) {
            failure = new MessagingException("cannot start the consumer: " + e, subscription.logicTopic(), cluster, e);
        }
        BoundConsumer discard = null;
        synchronized (this) {
            Pending state = pending.get(cluster);
            if (state != null) {
                state.inFlight = false;
                state.attempts++;
            }
            if (closed || state == null || !state.spec.equals(spec)) {
                // Closed, or a change replaced the spec meanwhile: this one is not wanted; the new spec is tried now.
                discard = started;
                if (!closed && state != null) {
                    schedule(cluster, state, 0);
                }
            } else if (failure == null) {
                pending.remove(cluster);
                install(spec, started);
                attachments.attached(cluster, owner, subscription.consumerGroup());
                lagRefresh.execute(this::refreshLag);
                if (!spec.drainTopics().isEmpty()) {
                    checkDrained(cluster, ticker.read() + state.grace.toNanos());
                }
            } else {
                state.failures++;
                attachments.failed(cluster, owner, subscription.consumerGroup(), failure);
                schedule(cluster, state, attachments.retryDelay(state.failures, failure).toNanos());
            }
            notifyAll();
        }
        if (discard != null) {
            discard.close();
        }
    }

    private BoundConsumer startConsumer(BoundConsumerSpec spec) throws MessagingException {
        return binding.createConsumer(spec, gate.guard(new ListenerAdapter(subscription.logicTopic(),
                subscription.consumerGroup(), spec.cluster().clusterName(), listener, metrics, ticker, spec.maxDeliveryAttempts(),
                spec.retryBackoff().isEmpty() ? null
                        : spec.ordered() ? SdkMetrics.RetryPath.QUEUE_PAUSE : SdkMetrics.RetryPath.DELAY_LEVEL)));
    }

    /** Starts {@code spec}'s consumer now, on the caller's thread (a configuration change's). */
    private void startOne(BoundConsumerSpec spec) throws MessagingException {
        install(spec, startConsumer(spec));
    }

    private void install(BoundConsumerSpec spec, BoundConsumer started) {
        String cluster = spec.cluster().clusterName();
        if (gate.paused()) {
            started.pause();
        }
        ClusterLag lag = new ClusterLag();
        perCluster.put(cluster, new Running(spec, started, metrics.directThreadsGauge(subscription.logicTopic(),
                subscription.consumerGroup(), subscriptionId, cluster, spec.topic(), spec.consumeThreads()), lag,
                metrics.consumerLagGauge(subscription.logicTopic(), subscription.consumerGroup(), subscriptionId, cluster,
                        () -> lag.messages)));
        countDraining();
    }

    /** Closes a cluster's consumer, which finishes its in-flight messages and commits their offsets. */
    private void stopOne(String cluster) {
        perCluster.get(cluster).consumer.close();
        forget(cluster);
    }

    /** Removes a closed cluster's consumer with its gauges. */
    private void forget(String cluster) {
        Running running = perCluster.remove(cluster);
        attachments.forget(cluster, owner);
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
        for (String cluster : new ArrayList<>(pending.keySet())) {
            if (!plan.containsKey(cluster)) {
                Pending dropped = pending.remove(cluster);
                if (dropped.next != null) {
                    dropped.next.cancel(false);
                }
                attachments.forget(cluster, owner);
            }
        }
        for (BoundConsumerSpec spec : plan.values()) {
            String cluster = spec.cluster().clusterName();
            if (pending.containsKey(cluster)) {
                attachLater(spec, grace); // never ran: nothing to drain; an attempt in flight with the old spec is discarded
            } else if (!perCluster.containsKey(cluster)) {
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
            // Its messages wait in the broker; the attach threads start it when the cluster lets them.
            MessagingException failure = e instanceof MessagingException m ? m : new MessagingException(
                    "cannot start the consumer: " + e, subscription.logicTopic(), spec.cluster().clusterName(), e);
            attachments.failed(spec.cluster().clusterName(), owner, subscription.consumerGroup(), failure);
            attachLater(spec, grace);
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

    /** Stops fetching on every cluster; the caller has paused the gate first. */
    synchronized void pauseFetching() {
        perCluster.values().forEach(running -> running.consumer.pause());
    }

    /** Fetches again on every cluster; the caller has resumed the gate. */
    synchronized void resumeFetching() {
        perCluster.values().forEach(running -> running.consumer.resume());
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
        pending.forEach((cluster, state) -> {
            if (state.next != null) {
                state.next.cancel(false);
            }
            attachments.forget(cluster, owner);
        });
        pending.clear();
        // An attempt blocked in a start is not awaited: it sees the consumption closed when it returns and closes what it started.
        attach.shutdown();
        // Interrupts a refresh waiting on a broker; not awaited, since one still running only writes to gauges removed here.
        lagRefresh.shutdownNow();
        ParallelClose.all(NamedThreads.name("lanemq-consumer-close", subscriptionId),
                perCluster.values().stream().map(running -> (Runnable) running.consumer::close).toList());
        new ArrayList<>(perCluster.keySet()).forEach(this::forget);
        metrics.remove(drainingGauge);
    }

    private record Running(BoundConsumerSpec spec, BoundConsumer consumer, Meter threadsGauge, ClusterLag lag, Meter lagGauge) {
    }

    /** A cluster not attached yet: what it should run, its attempts, the next one. Guarded by the consumption's lock. */
    private static final class Pending {
        BoundConsumerSpec spec;
        Duration grace = Duration.ZERO;
        int attempts;
        int failures;
        boolean inFlight;
        ScheduledFuture<?> next;

        /** Whether an attempt has answered (either way), so the start need not wait for it. */
        boolean answered() {
            return attempts > 0 && !inFlight;
        }
    }

    /** One cluster consumer's lag as last asked: written by the refresh thread, read by its gauge. */
    private static final class ClusterLag {
        volatile double messages = Double.NaN;
    }
}
