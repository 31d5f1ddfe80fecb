package io.lanemq.proxy;

import com.google.common.util.concurrent.RateLimiter;
import com.google.protobuf.UnsafeByteOperations;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.MessageContext;
import io.lanemq.api.MessagingException;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.StartPosition;
import io.lanemq.proxy.protocol.Delivery;
import io.lanemq.rocketmq.FetchedMessage;
import io.lanemq.rocketmq.GroupTopics;
import io.lanemq.rocketmq.QueueRef;
import io.lanemq.rocketmq.reader.QueueReader;
import io.lanemq.rocketmq.reader.ReadPolicy;
import io.lanemq.rocketmq.reader.RouteCheck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches one logic topic's physical topic (and its shadow topic when it takes stress-test traffic), and the
 * group's retry topic, on one cluster for one group, through a {@link QueueReader} in the group's own RocketMQ
 * consumer group (the name DIRECT consumers use, so switching modes keeps the offsets, and several proxy
 * instances share the queues through RocketMQ's rebalancing). The reader
 * commits, per queue, the offset its {@link QueueOffsetTracker} says is safe; this class is the proxy's policy: it
 * stops fetching while the group holds its maximum in flight, paces fetches to the group's rate and hands what it
 * fetched to the dispatcher.
 */
final class ClusterFetcher implements ReadPolicy<QueueOffsetTracker>, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ClusterFetcher.class);
    private static final long POLL_TIMEOUT_MS = 100;

    private final GroupKey group;
    private final String cluster;
    private final String physicalTopic;
    /** The route's shadow topic, read too when the logic topic takes stress-test traffic; null otherwise. */
    private final String shadowTopic;
    private final GroupDispatcher dispatcher;
    private final GroupLimits limits;
    private final RateLimiter rate;
    private final ProxyMetrics metrics;
    private final QueueReader.Builder<QueueOffsetTracker> readers;
    /** Asked first by every attempt, kept until attached or closed. */
    private final RouteCheck routes;
    /** Null until {@link #attach()} started one; guarded by this for writes. */
    private volatile QueueReader<QueueOffsetTracker> reader;
    private boolean closed;
    private volatile boolean fetching;
    /** The physical topic's queues RocketMQ's rebalancing gave this instance (the retry topic's are not counted in lag). */
    private volatile Set<QueueRef> heldQueues = Set.of();
    private volatile double lag = Double.NaN;

    /**
     * What every cluster's fetcher of one group shares.
     *
     * @param brokerGroup the group's name on the brokers (with its environment's suffix)
     * @param limits      the group's limits, held across its clusters
     * @param sharedRate  the group's fetch rate across its clusters; null when unlimited
     */
    record Group(GroupKey key, String brokerGroup, ConsumerConfig settings, GroupDispatcher dispatcher, GroupLimits limits,
                 RateLimiter sharedRate, ProxyContext proxy) {
    }

    /** @param shadowTopic the route's shadow topic when the logic topic takes stress-test traffic; null otherwise */
    ClusterFetcher(Group of, ClusterConfig cluster, String physicalTopic, String shadowTopic) throws InvalidConfigurationException {
        GroupKey group = of.key();
        String retryTopic = GroupTopics.retryTopic(of.brokerGroup());
        ConsumerConfig settings = of.settings();
        this.group = group;
        this.cluster = cluster.name();
        this.physicalTopic = physicalTopic;
        this.shadowTopic = shadowTopic;
        this.dispatcher = of.dispatcher();
        this.limits = of.limits();
        this.rate = of.sharedRate();
        this.metrics = of.proxy().metrics();
        this.routes = RouteCheck.of(cluster.endpoint());
        this.readers = QueueReader.<QueueOffsetTracker>builder(of.brokerGroup(), cluster.endpoint())
                .routeCheck(routes)
                .name(group + " on " + this.cluster)
                .threadName("lanemq-proxy-fetch-" + group.consumerGroup() + "-" + this.cluster)
                .topics(shadowTopic == null ? new String[] {physicalTopic, retryTopic}
                        : new String[] {physicalTopic, shadowTopic, retryTopic})
                .fromFirstOffset(settings.startPosition() == StartPosition.EARLIEST)
                .pullBatchSize(Math.min(settings.batchSize(), limits.maxInFlight()))
                .pollTimeout(Duration.ofMillis(POLL_TIMEOUT_MS))
                .commitInterval(of.proxy().options().commitInterval())
                .ledgers(queue -> new QueueOffsetTracker())
                .policy(this);
    }

    /**
     * Fails at once (within about a second) unless the cluster's name server routes the physical topic: the first step
     * of an attempt, so that one on a silent cluster waits out none of RocketMQ's 3 s timeouts (creating the group's
     * topics, starting the reader).
     */
    void requireRoute() throws MessagingException {
        routes.require(physicalTopic);
    }

    /**
     * One attempt to start fetching (the group's attach loop calls it until it succeeds): a reader whose start failed
     * cannot start again, so each attempt builds its own.
     */
    void attach() throws MessagingException {
        QueueReader<QueueOffsetTracker> next = readers.build();
        synchronized (this) {
            if (closed) {
                next.close();
                return;
            }
            // Before the start: its poll thread hands batches to this policy at once, which reads ledgers from it.
            reader = next;
        }
        try {
            next.start();
        } catch (MessagingException | RuntimeException e) {
            synchronized (this) {
                reader = null;
            }
            next.close();
            throw e;
        }
        fetching = true;
        routes.close(); // attached for good: no attempt follows
    }

    /** Whether this cluster is fetched (false until {@link #attach()} succeeded). */
    boolean attached() {
        return fetching;
    }

    /** Messages fetched on this cluster whose offsets cannot be committed yet. */
    int uncommitted() {
        QueueReader<QueueOffsetTracker> current = reader;
        return current == null ? 0 : current.ledgers().stream().mapToInt(QueueOffsetTracker::unfinishedCount).sum();
    }

    /** The physical topic's queues this instance reads now. */
    int heldQueueCount() {
        return heldQueues.size();
    }

    String cluster() {
        return cluster;
    }

    /**
     * Messages stored on this cluster's brokers beyond the group's committed offset, summed over the
     * physical topic's queues this instance holds (so the instances of a group add up to the group's lag);
     * NaN until known or when the last refresh failed. Queues the group has never committed on are left
     * out: their start is decided by the start position, not by a backlog.
     */
    double lag() {
        return lag;
    }

    /** Asks the brokers for each held queue's end; a remote call per queue, so not on the poll thread. */
    void refreshLag() {
        Set<QueueRef> queues = heldQueues;
        QueueReader<QueueOffsetTracker> current = reader;
        if (current == null) {
            lag = Double.NaN;
            return;
        }
        if (queues.isEmpty()) {
            lag = 0;
            return;
        }
        try {
            lag = current.backlog(queues);
        } catch (MessagingException | RuntimeException e) {
            lag = Double.NaN;
            log.debug("{} on {}: the lag of {} is unknown for now", group, cluster, physicalTopic, e);
        }
    }

    /** Stops fetching and waits for the poll thread (which commits once more on its way out). */
    void stopFetching() throws InterruptedException {
        QueueReader<QueueOffsetTracker> current = reader;
        if (current != null) {
            current.stopReading();
        }
    }

    /** Commits what is safe now; call after {@link #stopFetching()} (the poll thread commits while it runs). */
    void commitNow() {
        QueueReader<QueueOffsetTracker> current = reader;
        if (current != null) {
            current.commitNow();
        }
    }

    @Override
    public void close() {
        QueueReader<QueueOffsetTracker> current;
        synchronized (this) {
            closed = true;
            current = reader;
        }
        routes.close();
        if (current != null) {
            current.close();
        }
    }

    @Override
    public boolean beforePoll() throws InterruptedException {
        return dispatcher.awaitHeldBelow(limits.maxInFlight(), POLL_TIMEOUT_MS);
    }

    @Override
    public void onBatch(List<FetchedMessage> batch) {
        if (rate != null) {
            rate.acquire(batch.size());
        }
        dispatcher.offer(toHeld(batch));
    }

    /** Queues taken away are forgotten by the reader; their waiting messages are dropped here. */
    @Override
    public void queuesChanged(String topic, Set<QueueRef> all, Set<QueueRef> mine,
            Map<QueueRef, QueueOffsetTracker> revoked) {
        if (topic.equals(physicalTopic)) {
            heldQueues = Set.copyOf(mine);
        }
        revoked.forEach((queue, tracker) -> {
            dispatcher.dropQueue(tracker);
            log.info("{} on {}: queue {} moved to another proxy instance", group, cluster, queue);
        });
    }

    @Override
    public void commitFailed(RuntimeException failure) {
        metrics.commitFailures(group).increment();
    }

    private List<HeldMessage> toHeld(List<FetchedMessage> fetched) {
        List<HeldMessage> held = new ArrayList<>(fetched.size());
        for (FetchedMessage message : fetched) {
            QueueOffsetTracker tracker = reader.ledger(message.queue());
            tracker.fetched(message.offset());
            BoundMessage bound = message.toBoundMessage();
            boolean shadow = message.queue().topic().equals(shadowTopic);
            Delivery.Builder template = Delivery.newBuilder()
                    .setMessageId(bound.messageId())
                    .setLogicTopic(group.logicTopic())
                    .setCluster(cluster)
                    .addAllKeys(bound.keys())
                    .setTag(bound.tag().orElse(""))
                    .putAllProperties(bound.properties())
                    .setShardingKey(bound.shardingKey().orElse(""))
                    .setBody(UnsafeByteOperations.unsafeWrap(bound.body()))
                    .setBornTimestampMs(bound.bornTimestamp())
                    .setPhysicalTopic(shadow ? shadowTopic : physicalTopic)
                    .setQueueId(bound.queueId())
                    .setQueueOffset(bound.queueOffset());
            if (shadow) {
                // What a shadow topic holds is stress-test traffic by where it is; the mark (the producer's stamp) is
                // set on delivery all the same, so the listener's MessageContext is in stress mode whatever sent it.
                template.putProperties(MessageContext.STRESS_TEST_PROPERTY, "true");
            }
            String orderKey = bound.shardingKey().map(key -> cluster + '\n' + key).orElse(null);
            held.add(new HeldMessage(template.build(), tracker, message.offset(), orderKey, message,
                    message.reconsumeTimes()));
        }
        return held;
    }
}
