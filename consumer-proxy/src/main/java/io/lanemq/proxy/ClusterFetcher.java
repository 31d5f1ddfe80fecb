package io.lanemq.proxy;

import com.google.common.util.concurrent.RateLimiter;
import com.google.protobuf.UnsafeByteOperations;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.StartPosition;
import io.lanemq.proxy.protocol.Delivery;
import io.lanemq.rocketmq.DistinctClientAllocation;
import io.lanemq.rocketmq.RawClientSupport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.MessageQueueListener;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueAveragely;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.impl.MQAdminImpl;
import org.apache.rocketmq.client.impl.MQClientManager;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches one logic topic's physical topic, and the group's retry topic, on one cluster for one group, with a RocketMQ lite pull
 * consumer in the group's own RocketMQ consumer group (the name DIRECT consumers use, so switching
 * modes keeps the offsets, and several proxy instances share the queues through RocketMQ's
 * rebalancing). Auto-commit is off: every commit interval the poll thread commits, per queue, the
 * offset its {@link QueueOffsetTracker} says is safe. The poll thread stops fetching while the group
 * holds its maximum in flight and paces fetches to the group's rate.
 */
final class ClusterFetcher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ClusterFetcher.class);
    private static final long POLL_TIMEOUT_MS = 100;

    private final GroupKey group;
    private final String cluster;
    private final String physicalTopic;
    private final String retryTopic;
    private final GroupDispatcher dispatcher;
    private final GroupLimits limits;
    private final RateLimiter rate;
    private final long commitIntervalNanos;
    private final ProxyMetrics metrics;
    private final DefaultLitePullConsumer consumer;
    private final Map<MessageQueue, QueueOffsetTracker> trackers = new ConcurrentHashMap<>();
    private final Map<MessageQueue, Long> committed = new HashMap<>();
    private final Thread pollThread;
    private volatile boolean fetching = true;
    /** The physical topic's queues RocketMQ's rebalancing gave this instance (the retry topic's are not counted in lag). */
    private volatile Set<MessageQueue> heldQueues = Set.of();
    private volatile double lag = Double.NaN;
    private volatile boolean closed;

    ClusterFetcher(GroupKey group, ClusterConfig cluster, String physicalTopic, String retryTopic, ConsumerConfig settings,
                   GroupDispatcher dispatcher, GroupLimits limits, RateLimiter sharedRate, long commitIntervalNanos,
                   ProxyMetrics metrics) throws InvalidConfigurationException {
        this.group = group;
        this.cluster = cluster.name();
        this.physicalTopic = physicalTopic;
        this.retryTopic = retryTopic;
        this.dispatcher = dispatcher;
        this.limits = limits;
        this.rate = sharedRate;
        this.commitIntervalNanos = commitIntervalNanos;
        this.metrics = metrics;
        this.consumer = new DefaultLitePullConsumer(group.consumerGroup());
        RawClientSupport.connect(consumer, cluster.endpoint());
        consumer.setAutoCommit(false);
        // After a silent partition the broker lists a member once per connection, its dead one included; the
        // group's SDK consumers allocate the same way, so a group moving between DIRECT and PROXY stays consistent.
        consumer.setAllocateMessageQueueStrategy(new DistinctClientAllocation(new AllocateMessageQueueAveragely()));
        consumer.setPullBatchSize(Math.min(settings.batchSize(), limits.maxInFlight()));
        consumer.setPollTimeoutMillis(POLL_TIMEOUT_MS);
        consumer.setConsumeFromWhere(settings.startPosition() == StartPosition.EARLIEST
                ? ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET : ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET);
        this.pollThread = new Thread(this::pollLoop, "lanemq-proxy-fetch-" + group.consumerGroup() + "-" + this.cluster);
        pollThread.setDaemon(true);
    }

    void start() throws MQClientException {
        // The consumer keeps one queue listener (the last one given); it hears both topics' changes.
        QueueChanges changes = new QueueChanges();
        consumer.subscribe(physicalTopic, "*", changes);
        consumer.subscribe(retryTopic, "*", changes);
        consumer.start();
        pollThread.start();
    }

    /** Messages fetched on this cluster whose offsets cannot be committed yet. */
    int uncommitted() {
        return trackers.values().stream().mapToInt(QueueOffsetTracker::unfinishedCount).sum();
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
        Set<MessageQueue> queues = heldQueues;
        // Only a started, not yet shut down consumer holds queues; asking the client manager at any other time would
        // create a client instance the consumer does not own (before start: without the consumer's RPC hook).
        if (queues.isEmpty() || closed) {
            lag = queues.isEmpty() ? 0 : Double.NaN;
            return;
        }
        try {
            MQAdminImpl brokers = MQClientManager.getInstance().getOrCreateMQClientInstance(consumer).getMQAdminImpl();
            long total = 0;
            for (MessageQueue queue : queues) {
                long committedOffset = consumer.committed(queue);
                if (committedOffset >= 0) {
                    total += Math.max(0, brokers.maxOffset(queue) - committedOffset);
                }
            }
            lag = total;
        } catch (MQClientException | RuntimeException e) {
            lag = Double.NaN;
            log.debug("{} on {}: the lag of {} is unknown for now", group, cluster, physicalTopic, e);
        }
    }

    /** Stops fetching and waits for the poll thread (which commits once more on its way out). */
    void stopFetching() throws InterruptedException {
        fetching = false;
        pollThread.join(10_000);
    }

    /** Commits what is safe now; call after {@link #stopFetching()} (the poll thread commits while it runs). */
    void commitNow() {
        commit();
    }

    @Override
    public void close() {
        fetching = false;
        closed = true;
        consumer.shutdown();
    }

    private void pollLoop() {
        long lastCommit = System.nanoTime();
        while (fetching) {
            try {
                if (dispatcher.awaitHeldBelow(limits.maxInFlight(), POLL_TIMEOUT_MS)) {
                    List<MessageExt> fetched = consumer.poll();
                    if (!fetched.isEmpty()) {
                        if (rate != null) {
                            rate.acquire(fetched.size());
                        }
                        dispatcher.offer(toHeld(fetched));
                    }
                }
                if (System.nanoTime() - lastCommit >= commitIntervalNanos) {
                    commit();
                    lastCommit = System.nanoTime();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                log.warn("{} on {}: fetching {} failed; retrying", group, cluster, physicalTopic, e);
            }
        }
        commit();
    }

    private List<HeldMessage> toHeld(List<MessageExt> fetched) {
        List<HeldMessage> held = new ArrayList<>(fetched.size());
        for (MessageExt message : fetched) {
            MessageQueue queue = new MessageQueue(message.getTopic(), message.getBrokerName(), message.getQueueId());
            QueueOffsetTracker tracker = trackers.computeIfAbsent(queue, q -> new QueueOffsetTracker());
            tracker.fetched(message.getQueueOffset());
            BoundMessage bound = RawClientSupport.toBoundMessage(message);
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
                    .setPhysicalTopic(physicalTopic)
                    .setQueueId(bound.queueId())
                    .setQueueOffset(bound.queueOffset());
            String orderKey = bound.shardingKey().map(key -> cluster + '\n' + key).orElse(null);
            held.add(new HeldMessage(template.build(), tracker, message.getQueueOffset(), orderKey, message,
                    message.getReconsumeTimes()));
        }
        return held;
    }

    private void commit() {
        Map<MessageQueue, Long> offsets = new HashMap<>();
        trackers.forEach((queue, tracker) -> {
            OptionalLong offset = tracker.committableOffset();
            if (offset.isPresent() && !Long.valueOf(offset.getAsLong()).equals(committed.get(queue))) {
                offsets.put(queue, offset.getAsLong());
            }
        });
        if (offsets.isEmpty()) {
            return;
        }
        try {
            consumer.commitSync(offsets, true);
            committed.putAll(offsets);
        } catch (RuntimeException e) {
            metrics.commitFailures(group).increment();
            log.warn("{} on {}: committing offsets {} failed; the next commit retries", group, cluster, offsets, e);
        }
    }

    /** Called by RocketMQ's rebalancing: queues taken away are forgotten, new ones start with fresh trackers. */
    private final class QueueChanges implements MessageQueueListener {
        @Override
        public void messageQueueChanged(String topic, Set<MessageQueue> all, Set<MessageQueue> mine) {
            if (topic.equals(physicalTopic)) {
                heldQueues = Set.copyOf(mine);
            }
            trackers.entrySet().removeIf(entry -> {
                if (!entry.getKey().getTopic().equals(topic) || mine.contains(entry.getKey())) {
                    return false;
                }
                entry.getValue().revoke();
                dispatcher.dropQueue(entry.getValue());
                log.info("{} on {}: queue {} moved to another proxy instance", group, cluster, entry.getKey());
                return true;
            });
        }
    }
}
