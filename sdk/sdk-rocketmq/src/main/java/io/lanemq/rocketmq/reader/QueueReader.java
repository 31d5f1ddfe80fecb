package io.lanemq.rocketmq.reader;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.spi.ClusterEndpoint;
import io.lanemq.rocketmq.DistinctClientAllocation;
import io.lanemq.rocketmq.FetchedMessage;
import io.lanemq.rocketmq.QueueRef;
import io.lanemq.rocketmq.RawClientSupport;
import io.lanemq.support.NamedThreads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.function.Function;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.MessageQueueListener;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueAveragely;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.impl.MQAdminImpl;
import org.apache.rocketmq.client.impl.MQClientManager;
import org.apache.rocketmq.client.impl.consumer.MQConsumerInner;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A committing reader of one cluster's topics for one RocketMQ consumer group: a lite pull consumer
 * with auto-commit off, rebalanced by RocketMQ over the group's members, whose poll thread hands
 * each batch to a {@link ReadPolicy} and, every commit interval, commits per queue the offset its
 * {@link OffsetLedger} says is safe. A queue a rebalance takes away has its ledger revoked before
 * the policy hears of it, so it is never committed again by this member.
 *
 * <p>Auto-commit is off because RocketMQ's commits the offset after the last polled message, past
 * messages the policy has not finished with (unacked, not yet delivered); a restart or a new owner
 * would never read them again.
 *
 * <p>Lifecycle: {@link #start()} once; {@link #stopReading()} ends the poll thread (which commits
 * once more on its way out); {@link #commitNow()} may follow; {@link #close()} leaves the group.
 * Thread-safe.
 *
 * @param <L> the service's ledger of one queue
 */
public final class QueueReader<L extends OffsetLedger> implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(QueueReader.class);

    private final String name;
    private final String cluster;
    private final RouteCheck routes;
    private final List<String> topics;
    private final ReadPolicy<L> policy;
    private final long pollTimeoutMillis;
    private final long commitIntervalNanos;
    private final QueueLedgers<L> ledgers;
    private final DefaultLitePullConsumer consumer;
    private final Thread pollThread;
    private volatile boolean reading = true;
    private volatile boolean started;
    private volatile boolean closed;

    private QueueReader(Builder<L> b) throws InvalidConfigurationException {
        this.name = b.name;
        this.cluster = b.endpoint.clusterName();
        this.routes = b.routes;
        this.topics = List.copyOf(b.topics);
        this.policy = b.policy;
        this.pollTimeoutMillis = b.pollTimeout.toMillis();
        this.commitIntervalNanos = b.commitInterval.toNanos();
        this.ledgers = new QueueLedgers<>(b.ledgerFactory);
        this.consumer = new DefaultLitePullConsumer(b.consumerGroup, RawClientSupport.rpcHook(b.endpoint));
        if (b.instanceName == null) {
            RawClientSupport.connect(consumer, b.endpoint);
        } else {
            RawClientSupport.connect(consumer, b.endpoint, b.instanceName);
        }
        consumer.setAutoCommit(false);
        // After a silent partition the broker lists a member once per connection, its dead one included.
        consumer.setAllocateMessageQueueStrategy(new DistinctClientAllocation(new AllocateMessageQueueAveragely()));
        consumer.setPullBatchSize(b.pullBatchSize);
        consumer.setPollTimeoutMillis(pollTimeoutMillis);
        consumer.setConsumeFromWhere(b.fromFirstOffset
                ? ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET : ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET);
        this.pollThread = NamedThreads.daemon(b.threadName, this::pollLoop);
    }

    public static <L extends OffsetLedger> Builder<L> builder(String consumerGroup, ClusterEndpoint endpoint) {
        return new Builder<>(consumerGroup, endpoint);
    }

    /**
     * Subscribes the topics, joins the group and starts polling; fails, within about a second when the cluster's name
     * server is silent, unless the first topic (the reader's own; the others, such as a group's retry topic, may come
     * later) is routed. A reader whose start failed is closed and replaced: its owner retries in the background.
     *
     * @throws MessagingException naming the topic and the cluster: no route (name server silent, topic unknown), or
     *                            the consumer did not start
     */
    public void start() throws MessagingException {
        String own = topics.get(0);
        // RocketMQ's start gives up on a route silently (a silent name server, or another client of the instance holding
        // its name-server lock) and asks again only every 30 s: a reader so started would look attached and read
        // nothing. So the route is asked for first, briefly, and the consumer must have it once started.
        routes.require(own);
        // The consumer keeps one queue listener (the last one given); it hears every topic's changes.
        QueueChanges changes = new QueueChanges();
        try {
            for (String topic : topics) {
                consumer.subscribe(topic, "*", changes);
            }
            consumer.start();
        } catch (MQClientException e) {
            throw RawClientSupport.failed(e, name + ": cannot start reading " + topics, cluster);
        }
        MQConsumerInner inner = MQClientManager.getInstance().getOrCreateMQClientInstance(consumer)
                .selectConsumer(consumer.getConsumerGroup());
        if (inner == null || inner.isSubscribeTopicNeedUpdate(own)) {
            throw new MessagingException(name + ": the consumer started without the route of topic " + own + " (its name "
                    + "server stopped answering, or another client of the instance held the route lock); retried", null,
                    cluster);
        }
        started = true;
        pollThread.start();
    }

    /** The ledger of {@code queue}, created by the ledger factory on first use. For the policy. */
    public L ledger(QueueRef queue) {
        return ledgers.ledger(queue);
    }

    /** The ledger of {@code queue} if this reader has one, else null. */
    public L findLedger(QueueRef queue) {
        return ledgers.find(queue);
    }

    /** Takes a ledger the policy rebuilt (e.g. from a checkpoint) as the queue's ledger. */
    public void adoptLedger(QueueRef queue, L ledger) {
        ledgers.adopt(queue, ledger);
    }

    /** Forgets the queue's ledger if it is still {@code ledger}, without revoking it; true if it was. */
    public boolean forgetLedger(QueueRef queue, L ledger) {
        return ledgers.forget(queue, ledger);
    }

    /** The ledgers of the queues this reader holds, a live unmodifiable view. */
    public Collection<L> ledgers() {
        return ledgers.all();
    }

    /**
     * Commits what the ledgers allow now. Call it only when the poll thread has stopped ({@link #stopReading()}):
     * while it runs, it commits every commit interval.
     *
     * @return false if the commit failed (logged; the next commit retries)
     */
    public boolean commitNow() {
        try {
            ledgers.commit(offsets -> {
                Map<MessageQueue, Long> rocketMq = new HashMap<>();
                offsets.forEach((queue, offset) -> rocketMq.put(queue.toMessageQueue(), offset));
                consumer.commit(rocketMq, true);
            });
            return true;
        } catch (RuntimeException e) {
            log.warn("{}: committing offsets failed; the next commit retries", name, e);
            policy.commitFailed(e);
            return false;
        }
    }

    /** The group's committed offset of {@code queue} as the brokers have it (-1 if none). A remote call. */
    public Long committed(QueueRef queue) throws MessagingException {
        try {
            return consumer.committed(queue.toMessageQueue());
        } catch (MQClientException e) {
            throw RawClientSupport.failed(e, name + ": cannot read the committed offset of " + queue, cluster);
        }
    }

    /**
     * Messages stored beyond the group's committed offset, summed over {@code queues}; a queue the
     * group never committed on is left out (its start is the start position's, not a backlog).
     * A remote call per queue: not for the poll thread.
     */
    public long backlog(Collection<QueueRef> queues) throws MessagingException {
        // Only a started, not yet shut down consumer may be asked: the client manager would otherwise create
        // a client instance the consumer does not own (before start: without the consumer's RPC hook).
        if (!started || closed) {
            throw new IllegalStateException(name + ": not reading");
        }
        MQAdminImpl brokers = MQClientManager.getInstance().getOrCreateMQClientInstance(consumer).getMQAdminImpl();
        long total = 0;
        try {
            for (QueueRef queue : queues) {
                MessageQueue rocketMq = queue.toMessageQueue();
                long committedOffset = consumer.committed(rocketMq);
                if (committedOffset >= 0) {
                    total += Math.max(0, brokers.maxOffset(rocketMq) - committedOffset);
                }
            }
        } catch (MQClientException e) {
            throw RawClientSupport.failed(e, name + ": cannot read the backlog", cluster);
        }
        return total;
    }

    /** Reads {@code queue} on from {@code offset}; what was pulled of it before is dropped. */
    public void seek(QueueRef queue, long offset) throws MessagingException {
        try {
            consumer.seek(queue.toMessageQueue(), offset);
        } catch (MQClientException e) {
            throw RawClientSupport.failed(e, name + ": cannot seek " + queue + " to " + offset, cluster);
        }
    }

    public void seekToBegin(QueueRef queue) throws MessagingException {
        try {
            consumer.seekToBegin(queue.toMessageQueue());
        } catch (MQClientException e) {
            throw RawClientSupport.failed(e, name + ": cannot seek " + queue + " to its beginning", cluster);
        }
    }

    /** Whether the last rebalance gave {@code queue} to this reader. */
    public boolean isAssigned(QueueRef queue) throws MessagingException {
        try {
            return consumer.assignment().contains(queue.toMessageQueue());
        } catch (MQClientException e) {
            throw RawClientSupport.failed(e, name + ": cannot read the assignment", cluster);
        }
    }

    /** True while the poll thread runs. */
    public boolean isReading() {
        return reading && pollThread.isAlive();
    }

    /** Stops polling and waits (up to 10 s) for the poll thread, which commits once more on its way out. */
    public void stopReading() throws InterruptedException {
        reading = false;
        if (started) {
            pollThread.join(10_000);
        }
    }

    /** Stops polling without waiting and leaves the group. */
    @Override
    public void close() {
        reading = false;
        closed = true;
        consumer.shutdown();
    }

    private void pollLoop() {
        long lastCommit = System.nanoTime();
        while (reading) {
            try {
                if (policy.beforePoll()) {
                    List<MessageExt> batch = consumer.poll(pollTimeoutMillis);
                    if (!batch.isEmpty()) {
                        List<FetchedMessage> fetched = new ArrayList<>(batch.size());
                        batch.forEach(message -> fetched.add(FetchedMessage.of(message)));
                        policy.onBatch(fetched);
                    }
                }
                if (System.nanoTime() - lastCommit >= commitIntervalNanos) {
                    commitNow();
                    lastCommit = System.nanoTime();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                log.warn("{}: reading {} failed; retrying", name, topics, e);
            }
        }
        commitNow();
    }

    /** Called by RocketMQ's rebalancing: ledgers of queues taken away are revoked and forgotten. */
    private final class QueueChanges implements MessageQueueListener {
        @Override
        public void messageQueueChanged(String topic, Set<MessageQueue> all, Set<MessageQueue> mine) {
            Set<QueueRef> held = refs(mine);
            Map<QueueRef, L> revoked = ledgers.revokeAllBut(topic, held);
            policy.queuesChanged(topic, refs(all), held, revoked);
        }
    }

    private static Set<QueueRef> refs(Set<MessageQueue> queues) {
        return queues.stream().map(QueueRef::of).collect(Collectors.toUnmodifiableSet());
    }

    /** Settings of a reader; {@link #build()} validates them and creates the (not yet started) consumer. */
    public static final class Builder<L extends OffsetLedger> {
        private final String consumerGroup;
        private final ClusterEndpoint endpoint;
        private String name;
        private String threadName;
        private String instanceName;
        private List<String> topics = List.of();
        private boolean fromFirstOffset;
        private int pullBatchSize = 32;
        private Duration pollTimeout = Duration.ofMillis(100);
        private Duration commitInterval = Duration.ofSeconds(1);
        private Function<QueueRef, L> ledgerFactory;
        private ReadPolicy<L> policy;
        private RouteCheck routes;

        private Builder(String consumerGroup, ClusterEndpoint endpoint) {
            this.consumerGroup = Objects.requireNonNull(consumerGroup, "consumerGroup");
            this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
            this.name = consumerGroup + " on " + endpoint.clusterName();
        }

        /** How logs name this reader; default {@code <group> on <cluster>}. */
        public Builder<L> name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /** The poll thread's name, which should say whose it is. Required. */
        public Builder<L> threadName(String threadName) {
            this.threadName = Objects.requireNonNull(threadName, "threadName");
            return this;
        }

        /** The RocketMQ instance name; default a fresh one per client, as the binding's own clients have. */
        public Builder<L> instanceName(String instanceName) {
            this.instanceName = Objects.requireNonNull(instanceName, "instanceName");
            return this;
        }

        public Builder<L> topics(String... topics) {
            this.topics = List.of(topics);
            return this;
        }

        /** Where a queue the group never committed on starts: its first offset (true) or its end (false, default). */
        public Builder<L> fromFirstOffset(boolean fromFirstOffset) {
            this.fromFirstOffset = fromFirstOffset;
            return this;
        }

        public Builder<L> pullBatchSize(int pullBatchSize) {
            if (pullBatchSize < 1) {
                throw new IllegalArgumentException("pullBatchSize must be positive, was " + pullBatchSize);
            }
            this.pullBatchSize = pullBatchSize;
            return this;
        }

        public Builder<L> pollTimeout(Duration pollTimeout) {
            if (pollTimeout.toMillis() < 1) {
                throw new IllegalArgumentException("pollTimeout must be at least 1 ms, was " + pollTimeout);
            }
            this.pollTimeout = pollTimeout;
            return this;
        }

        public Builder<L> commitInterval(Duration commitInterval) {
            if (commitInterval.isNegative()) {
                throw new IllegalArgumentException("commitInterval must not be negative, was " + commitInterval);
            }
            this.commitInterval = commitInterval;
            return this;
        }

        /** Creates the ledger of a queue on its first use. Required. */
        public Builder<L> ledgers(Function<QueueRef, L> ledgerFactory) {
            this.ledgerFactory = Objects.requireNonNull(ledgerFactory, "ledgerFactory");
            return this;
        }

        public Builder<L> policy(ReadPolicy<L> policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * The check of the endpoint's name servers the start asks first. Required; the caller's, kept over its attempts
         * and closed by it (it is not the reader's to close).
         */
        public Builder<L> routeCheck(RouteCheck routes) {
            this.routes = Objects.requireNonNull(routes, "routes");
            return this;
        }

        public QueueReader<L> build() throws InvalidConfigurationException {
            if (topics.isEmpty()) {
                throw new IllegalStateException("topics are required [reader=" + name + "]");
            }
            if (threadName == null || ledgerFactory == null || policy == null || routes == null) {
                throw new IllegalStateException("threadName, ledgers, policy and routeCheck are required [reader=" + name
                        + "]");
            }
            return new QueueReader<>(this);
        }
    }
}
