package io.lanemq.dialtest;

import java.time.InstantSource;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyContext;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * The consumer side of the dial test for one name server: a push consumer of the probe topic that acks every
 * tracked probe to the producer address in its body ({@link ProbeAcks}). It knows nothing of the producer's
 * bookkeeping; any dial-test process of the same consumer group may consume any probe, and the ack finds its producer.
 * A message is never retried because its ack could not be delivered: the producer counts the loss.
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

    private ConsumeConcurrentlyStatus consume(List<MessageExt> messages, ConsumeConcurrentlyContext context) {
        probeAcks.ack(messages.stream().map(m -> new ProbeAcks.Delivery(m.getBody(), m.getReconsumeTimes())).toList());
        return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
    }

    @Override
    public void close() {
        consumer.shutdown();
    }
}
