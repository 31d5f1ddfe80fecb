package io.lanemq.proxy;

import io.lanemq.support.NamedThreads;
import io.lanemq.support.Clocks;
import io.lanemq.support.attach.AttachLoop;
import io.lanemq.support.attach.AttachPolicy;
import com.google.common.util.concurrent.RateLimiter;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.MessagingException;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.TopicRoute;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything that serves one consumer group of one logic topic: a fetcher per cluster route, the
 * dispatcher its consumers connect to, and the publisher to the group's retry and dead-letter topics. Built from the platform
 * configuration snapshot current when the group's first consumer subscribed.
 */
final class GroupRuntime implements AutoCloseable, DispatchListener {
    private static final Logger log = LoggerFactory.getLogger(GroupRuntime.class);
    private static final long TICK_MS = 20;
    /** Each attempt asks the name server first (the fetcher's route check), so it fails within a second while silent. */
    static final AttachPolicy ATTACH = AttachPolicy.QUICKLY_FAILING;
    /** Under the broker timer's longest delay (3 days by default); a longer retry delay comes back after this. */
    private static final long MAX_PARKED_DELAY_MS = TimeUnit.DAYS.toMillis(1);

    private final GroupKey key;
    private final GroupSpec spec;
    private final ProxyMetrics metrics;
    private final GroupDispatcher dispatcher;
    private final List<ClusterFetcher> fetchers = new ArrayList<>();
    /** One per fetcher, attaching it in the background until it fetches. */
    private final List<AttachLoop> attaching = new ArrayList<>();
    private final ScheduledExecutorService publisherThread;
    private final GroupTopicsPublisher topics;
    private final ScheduledFuture<?> ticks;
    private final ScheduledExecutorService lagThread;
    private final List<Meter> gauges = new ArrayList<>();
    private final long brokerRetryFromNanos;
    private final Counter acks;
    private final DeliveryCounters deliveries;

    private GroupRuntime(GroupKey key, LogicTopicConfig topic, ConsumerConfig settings, PlatformConfig platform,
                         ProxyContext proxy) throws InvalidConfigurationException {
        ProxyServerOptions config = proxy.options();
        ProxyMetrics metrics = proxy.metrics();
        Clocks clocks = proxy.clocks();
        this.key = key;
        this.spec = GroupSpec.of(platform, key).orElseThrow();
        this.metrics = metrics;
        this.acks = metrics.acks(key);
        this.deliveries = new DeliveryCounters(metrics, key);
        this.brokerRetryFromNanos = config.brokerRetryFrom().toNanos();
        this.dispatcher = new GroupDispatcher(key.toString(), new DispatchPolicy(config.ackTimeout(),
                settings.maxDeliveryAttempts(), config.initialBackoff(), config.maxBackoff(), DispatchPolicy.DEFAULT_RUN),
                clocks.ticker()::read, proxy.deliveryIds(), this);
        GroupLimits limits = GroupLimits.of(settings, config.limits(key.consumerGroup()));
        RateLimiter rate = limits.maxPerSecond() > 0 ? RateLimiter.create(limits.maxPerSecond()) : null;
        // The group's name on the brokers: its environment's suffix keeps two environments on one cluster apart.
        String brokerGroup = platform.physicalGroup(key.consumerGroup());
        ClusterFetcher.Group fetching = new ClusterFetcher.Group(key, brokerGroup, settings, dispatcher, limits, rate, proxy);
        for (TopicRoute route : topic.routes()) {
            ClusterConfig cluster = platform.cluster(route.cluster());
            // A topic that takes stress-test traffic has it on each route's shadow topic: the group reads it too, as in DIRECT mode.
            String shadowTopic = topic.stressTest() ? platform.shadowTopic(route) : null;
            fetchers.add(new ClusterFetcher(fetching, cluster, route.physicalTopic(), shadowTopic));
        }
        this.publisherThread = Executors.newSingleThreadScheduledExecutor(NamedThreads.single("lanemq-proxy-publish-" + key.consumerGroup()));
        this.topics = new GroupTopicsPublisher(key, brokerGroup, spec.routes(), publisherThread, clocks.wall());
        gauges.addAll(metrics.groupGauges(key, dispatcher, () -> fetchers.stream().mapToInt(ClusterFetcher::uncommitted).sum()));
        fetchers.forEach(fetcher -> {
            gauges.add(metrics.lag(key, fetcher.cluster(), fetcher::lag));
            gauges.add(metrics.queues(key, fetcher.cluster(), fetcher::heldQueueCount));
        });
        this.ticks = proxy.tickThread().scheduleWithFixedDelay(this::tick, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
        // Its own thread: a broker that does not answer must hold up neither dispatching nor dead-lettering.
        this.lagThread = Executors.newSingleThreadScheduledExecutor(NamedThreads.single("lanemq-proxy-lag-" + key.consumerGroup()));
        long lagEvery = config.commitInterval().toMillis();
        lagThread.scheduleWithFixedDelay(() -> fetchers.forEach(ClusterFetcher::refreshLag), lagEvery, lagEvery, TimeUnit.MILLISECONDS);
    }

    /**
     * Starts consuming every route of the group's logic topic. Each cluster is attached in the background (its group
     * topics created, its reader started): the start waits {@link AttachPolicy#startWait()} at most for their first
     * answers and returns with those that answered; a cluster down or silent is attached when it answers, so the group
     * serves the other clusters meanwhile, and a group never fails to start for one unreachable cluster.
     */
    static GroupRuntime start(GroupKey key, LogicTopicConfig topic, ConsumerConfig settings, PlatformConfig platform,
                              ProxyContext proxy) throws MessagingException {
        GroupRuntime runtime = new GroupRuntime(key, topic, settings, platform, proxy);
        ProxyMetrics metrics = proxy.metrics();
        try {
            for (ClusterFetcher fetcher : runtime.fetchers) {
                runtime.attaching.add(AttachLoop.start(NamedThreads.name("lanemq-proxy-attach", key.consumerGroup(),
                                fetcher.cluster()), key + " on cluster " + fetcher.cluster(), ATTACH, proxy.attachBudget(),
                        failure -> !(failure instanceof InvalidConfigurationException), () -> {
                            fetcher.requireRoute();
                            runtime.topics.createTopics(fetcher.cluster());
                            fetcher.attach();
                        }, metrics.attachOutcomes(key, fetcher.cluster()), proxy.clocks().ticker()));
            }
            // On System.nanoTime, not the injected ticker: this deadline bounds the real blocking waits below.
            long deadline = System.nanoTime() + ATTACH.startWait().toNanos();
            for (AttachLoop loop : runtime.attaching) {
                loop.awaitFirstAnswer(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            runtime.close();
            throw new MessagingException(key + ": interrupted while starting", key.logicTopic(), null, e);
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
        }
        log.info("{}: consuming {} of {} routes for the proxy's consumers; the others are attached when they answer", key,
                runtime.fetchers.stream().filter(ClusterFetcher::attached).count(), runtime.fetchers.size());
        return runtime;
    }

    /** Per cluster not fetched yet: why, since when (the group serves the others meanwhile). */
    List<String> detached() {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < attaching.size(); i++) {
            String cluster = fetchers.get(i).cluster();
            attaching.get(i).reason().ifPresent(reason -> lines.add(key + " on cluster " + cluster + ": " + reason));
        }
        return lines;
    }

    GroupKey key() {
        return key;
    }

    /** What the group was built from. */
    GroupSpec spec() {
        return spec;
    }

    GroupDispatcher dispatcher() {
        return dispatcher;
    }

    String deadLetterTopic() {
        return topics.deadLetterTopic();
    }

    private void tick() {
        try {
            dispatcher.tick();
        } catch (RuntimeException e) {
            log.error("{}: dispatcher tick failed", key, e);
        }
    }

    /** First step of a graceful shutdown: nothing new is fetched (the fetchers commit on their way out). */
    void stopFetching() throws InterruptedException {
        for (ClusterFetcher fetcher : fetchers) {
            fetcher.stopFetching();
        }
        dispatcher.drain();
    }

    /**
     * Waits for outstanding deliveries to be acked, at most {@code timeoutMillis}; moves the unordered
     * ones still unacked to the group's retry topic (so committing past them loses nothing, and acked
     * messages above them are not delivered again); then commits what is safe. Ordered messages still
     * unacked keep their queue's offset where it is, since a retry topic would break their order.
     *
     * @return how many deliveries were still unacked at the timeout
     */
    int awaitAcksAndCommit(long timeoutMillis) throws InterruptedException {
        dispatcher.awaitNoneOutstanding(timeoutMillis);
        List<HeldMessage> unacked = dispatcher.abandonOutstanding();
        for (HeldMessage message : unacked) {
            if (message.orderKey() == null && topics.requeue(message, 5_000)) {
                message.finish();
            }
        }
        fetchers.forEach(ClusterFetcher::commitNow);
        return unacked.size();
    }

    @Override
    public void close() {
        attaching.forEach(AttachLoop::close);
        ticks.cancel(false);
        lagThread.shutdownNow();
        metrics.remove(gauges);
        fetchers.forEach(ClusterFetcher::close);
        publisherThread.execute(topics::close);
        publisherThread.shutdown();
        try {
            publisherThread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        publisherThread.shutdownNow();
    }

    @Override
    public void delivered(ConsumerSession session, HeldMessage message) {
        deliveries.of(session.consumerId()).increment();
    }

    @Override
    public void left(ConsumerSession session) {
        deliveries.forget(session.consumerId());
    }

    @Override
    public void acked(HeldMessage message) {
        acks.increment();
    }

    @Override
    public void willRedeliver(HeldMessage message, FailedBy reason) {
        metrics.redeliveries(key, reason).increment();
    }

    @Override
    public boolean parked(HeldMessage message, long delayNanos) {
        if (message.orderKey() != null || delayNanos < brokerRetryFromNanos) {
            return false;
        }
        long delayMillis = Math.min(TimeUnit.NANOSECONDS.toMillis(delayNanos), MAX_PARKED_DELAY_MS);
        topics.park(message, delayMillis, parked -> {
            parked.finish();
            metrics.parkedRetries(key).increment();
        }, () -> metrics.parkFailures(key).increment());
        return true;
    }

    @Override
    public void deadLetter(HeldMessage message, FailedBy reason) {
        if (reason == FailedBy.REJECTED) {
            log.info("{}: {} was rejected by its consumer (attempt {}); sending it to {}", key, message, message.attempts(),
                    topics.deadLetterTopic());
        } else {
            log.info("{}: {} failed its last allowed attempt ({}, {}); sending it to {}", key, message, message.attempts(),
                    reason, topics.deadLetterTopic());
        }
        topics.deadLetter(message, dead -> {
            dead.finish();
            metrics.deadLetters(key).increment();
        }, () -> metrics.deadLetterFailures(key).increment());
    }
}
