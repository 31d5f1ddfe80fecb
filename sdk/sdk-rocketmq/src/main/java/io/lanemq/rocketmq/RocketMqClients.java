package io.lanemq.rocketmq;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.api.spi.BoundProducerSpec;
import java.util.concurrent.ExecutorService;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueAveragely;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;

/**
 * Builds configured, not yet started, RocketMQ clients from specs: the one place that decides
 * how a spec and an endpoint's settings become RocketMQ settings.
 *
 * <p>Every client gets its own {@code instanceName}, containing the cluster name, the process id
 * and a sequence number. RocketMQ caches its client instance (network channels, route tables,
 * the producer registry) per client id {@code ip@instanceName}; two clients with one id would
 * share it, and a producer of cluster B would then send through cluster A's name server
 * (RocketMQ #8806). One instance per producer and consumer costs some threads and connections,
 * and buys isolation: closing one client never affects another. The process id keeps two JVMs
 * on one host from looking like one consumer to the broker's rebalancing.
 */
final class RocketMqClients {
    private static final AtomicLong SEQUENCE = new AtomicLong();
    private static final long PID = ProcessHandle.current().pid();

    private RocketMqClients() {
    }

    /** Ends the instance name and starts a member tag; the generated part never contains it. */
    private static final char MEMBER_TAG_SEPARATOR = '~';

    static String instanceName(String cluster) {
        return "lanemq-" + cluster + "-" + PID + "-" + SEQUENCE.incrementAndGet();
    }

    /**
     * A consumer carries its member tag in its instance name, so the tag is part of the client id the
     * brokers list for its group: the other members read it from there, with no registry of its own.
     */
    static String instanceName(String cluster, Optional<String> memberTag) {
        return instanceName(cluster) + memberTag.map(tag -> MEMBER_TAG_SEPARATOR + tag).orElse("");
    }

    /** The member tag in a client id ({@code ip@instanceName[@unit]}), if the client joined with one. */
    static Optional<String> memberTag(String clientId) {
        int start = clientId.indexOf(MEMBER_TAG_SEPARATOR);
        if (start < 0) {
            return Optional.empty();
        }
        int end = clientId.indexOf('@', start);
        String tag = clientId.substring(start + 1, end < 0 ? clientId.length() : end);
        return tag.isEmpty() ? Optional.empty() : Optional.of(tag);
    }

    /**
     * A producer for the spec; a {@link TransactionMQProducer} (which sends plain messages too)
     * when {@code transactionListener} is non-null, with check-backs answered on {@code checkExecutor}.
     */
    /** Guard threads sleep half of it: 20 wake-ups a second each instead of 200. */
    private static final int ACCUMULATOR_HOLD_MS = 100;

    static DefaultMQProducer newProducer(BoundProducerSpec spec, EndpointTuning settings,
                                         TransactionListener transactionListener, ExecutorService checkExecutor)
            throws InvalidConfigurationException {
        String cluster = spec.cluster().clusterName();
        if (spec.maxBodyBytes() <= 0) {
            throw new InvalidConfigurationException("maxBodyBytes of producer group '" + spec.producerGroup()
                    + "' on cluster '" + cluster + "' must be positive, was " + spec.maxBodyBytes());
        }
        long timeoutMs = spec.sendTimeout().toMillis();
        if (timeoutMs < 1 || timeoutMs > Integer.MAX_VALUE) {
            throw new InvalidConfigurationException("sendTimeout of producer group '" + spec.producerGroup()
                    + "' on cluster '" + cluster + "' must be 1 ms to 24 days, was " + spec.sendTimeout());
        }
        DefaultMQProducer producer;
        if (transactionListener != null) {
            TransactionMQProducer transactional = new TransactionMQProducer(spec.producerGroup(),
                    ClusterAccess.rpcHook(spec.cluster()));
            transactional.setTransactionListener(transactionListener);
            transactional.setExecutorService(checkExecutor);
            producer = transactional;
        } else {
            producer = new DefaultMQProducer(spec.producerGroup(), ClusterAccess.rpcHook(spec.cluster()));
        }
        producer.setNamesrvAddr(spec.cluster().nameServerAddress());
        ClusterAccess.applyTls(producer, spec.cluster());
        producer.setInstanceName(instanceName(cluster));
        settings.applyTo(producer);
        producer.setSendMsgTimeout((int) timeoutMs);
        // Never below RocketMQ's default: the core enforces maxBodyBytes; the client must only not refuse less.
        producer.setMaxMessageSize(Math.max(producer.getMaxMessageSize(), spec.maxBodyBytes()));
        // Avoid a slow or failing broker within this cluster; failing over to the other cluster is the core's job.
        producer.setSendLatencyFaultEnable(true);
        producer.setRetryTimesWhenSendFailed(settings.retriesWithinCluster());
        producer.setRetryTimesWhenSendAsyncFailed(settings.retriesWithinCluster());
        return withQuietAccumulator(producer);
    }

    /**
     * Slows the idle loop of the auto-batching accumulator RocketMQ starts with every producer, used or not: from
     * 5.3 its two guard threads per client instance sleep half the batch hold time (default 10 ms) between scans
     * of an empty table, 400 wake-ups a second per client instance (the idle benchmark found 16 such threads at
     * ~0.33% of a core each). LaneMQ never turns {@code autoBatch} on, it gathers itself, so the hold time is only
     * that sleep. Not longer than 100 ms: the guards are joined on shutdown, so each close waits out one sleep.
     */
    static DefaultMQProducer withQuietAccumulator(DefaultMQProducer producer) {
        producer.batchMaxDelayMs(ACCUMULATOR_HOLD_MS);
        return producer;
    }

    static DefaultMQPushConsumer newPushConsumer(BoundConsumerSpec spec, EndpointTuning settings)
            throws InvalidConfigurationException {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(spec.consumerGroup(), ClusterAccess.rpcHook(spec.cluster()));
        consumer.setNamesrvAddr(spec.cluster().nameServerAddress());
        ClusterAccess.applyTls(consumer, spec.cluster());
        consumer.setInstanceName(instanceName(spec.cluster().clusterName(), spec.memberTag()));
        settings.applyTo(consumer);
        consumer.setPullBatchSize(spec.batchSize());
        // A cluster-wide override in the endpoint's tuning wins over the group's setting.
        settings.pullBatchSize().ifPresent(consumer::setPullBatchSize);
        // Max first: RocketMQ refuses a min above the max, and its defaults are 20/20.
        consumer.setConsumeThreadMax(spec.consumeThreads());
        consumer.setConsumeThreadMin(spec.consumeThreads());
        // RocketMQ counts redeliveries, the SPI counts deliveries; 0 sends a first failure straight to the DLQ.
        consumer.setMaxReconsumeTimes(spec.maxDeliveryAttempts() - 1);
        // One message per listener call, so one message's failure never redelivers another.
        consumer.setConsumeMessageBatchMaxSize(1);
        consumer.setConsumeFromWhere(spec.startPosition() == BoundConsumerSpec.StartPosition.EARLIEST
                ? ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET
                : ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET);
        consumer.setAwaitTerminationMillisWhenShutdown(settings.shutdownAwaitMs());
        // After a silent partition the broker lists a member once per connection, its dead one included.
        consumer.setAllocateMessageQueueStrategy(new DistinctClientAllocation(new AllocateMessageQueueAveragely()));
        return consumer;
    }
}
