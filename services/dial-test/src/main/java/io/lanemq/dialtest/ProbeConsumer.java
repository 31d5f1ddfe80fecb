package io.lanemq.dialtest;

import io.lanemq.rocketmq.DistinctClientAllocation;
import java.time.InstantSource;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.rocketmq.client.consumer.AllocateMessageQueueStrategy;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyContext;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueAveragely;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * The consumer side of the dial test for one name server: a push consumer of the probe topic that acks every
 * tracked probe to the producer address in its body ({@link ProbeAcks}). It knows nothing of the producer's
 * bookkeeping; any dial-test process of the same consumer group may consume any probe, and the ack finds its producer.
 * A message is never retried because its ack could not be delivered: the producer counts the loss.
 *
 * <p>Its queues are allocated over the group's distinct members ({@link DistinctClientAllocation}), as the SDK's
 * consumers' are: after a silent partition the broker still lists this consumer's dead connection beside its new one,
 * and RocketMQ's own allocation would then leave half the partitioned broker's queues to a member that does not exist,
 * their probes unread until the broker drops that connection, seconds to minutes after the heal.
 */
final class ProbeConsumer implements AutoCloseable {

    private static final int CONSUME_THREADS = 4;
    private static final int BATCH = 32;

    private final DefaultMQPushConsumer consumer;
    private final DialTestOptions config;
    private final ProbeAcks probeAcks;

    ProbeConsumer(String label, String nameServer, String instanceName, DialTestOptions config, AckSender acks,
                  DialTestMetrics metrics, InstantSource wallClock) {
        this.config = config;
        this.probeAcks = new ProbeAcks(config, acks, metrics, wallClock, label);
        consumer = new DefaultMQPushConsumer(config.consumerGroup());
        consumer.setNamesrvAddr(nameServer);
        consumer.setInstanceName(instanceName);
        consumer.setVipChannelEnabled(false);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET);
        consumer.setAllocateMessageQueueStrategy(new DistinctClientAllocation(new AllocateMessageQueueAveragely()));
        consumer.setConsumeThreadMin(CONSUME_THREADS);
        consumer.setConsumeThreadMax(CONSUME_THREADS);
        consumer.setConsumeMessageBatchMaxSize(BATCH);
        consumer.setPullBatchSize(BATCH);
        consumer.setHeartbeatBrokerInterval(5_000);
        consumer.setPollNameServerInterval(5_000);
        consumer.setPersistConsumerOffsetInterval(1_000);
        consumer.setMaxReconsumeTimes(0);
    }

    /** Subscribes and starts; probes flow once the rebalance assigns queues (see {@link #holdsQueuesOf}). */
    ProbeConsumer start() throws MQClientException {
        consumer.subscribe(config.probeTopic(), "*");
        consumer.registerMessageListener((MessageListenerConcurrently) this::consume);
        consumer.start();
        return this;
    }

    /** Whether this consumer holds at least one probe-topic queue of each of {@code brokers}. */
    boolean holdsQueuesOf(Collection<String> brokers) {
        Set<String> held = consumer.getDefaultMQPushConsumerImpl().getRebalanceImpl().getProcessQueueTable().keySet()
            .stream().filter(q -> q.getTopic().equals(config.probeTopic())).map(MessageQueue::getBrokerName)
            .collect(Collectors.toSet());
        return held.containsAll(brokers);
    }

    /** How this consumer's queues are allocated over its group at each rebalance. */
    AllocateMessageQueueStrategy allocation() {
        return consumer.getAllocateMessageQueueStrategy();
    }

    private ConsumeConcurrentlyStatus consume(List<MessageExt> messages, ConsumeConcurrentlyContext context) {
        probeAcks.ack(messages.stream().map(m -> new ProbeAcks.Delivery(m.getBody(), m.getReconsumeTimes())).toList());
        return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
    }

    @Override
    public void close() {
        consumer.shutdown();
    }
}
