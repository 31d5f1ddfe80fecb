package io.lanemq.dialtest;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * tracked probe to the producer address in its body. It knows nothing of the producer's bookkeeping; any
 * dial-test process of the same consumer group may consume any probe, and the ack finds its producer.
 *
 * <p>Not acked (counted under {@link DialTestMetrics#PROBES_SKIPPED}): messages that are not probes, and probes
 * long past their due time (left over from an earlier run; their producer is gone). Untracked probes are simply
 * consumed. A message is never retried because its ack could not be delivered: the producer counts the loss.
 */
final class ProbeConsumer implements AutoCloseable {

    private static final int CONSUME_THREADS = 4;
    private static final int BATCH = 32;

    private final DefaultMQPushConsumer consumer;
    private final DialTestOptions config;
    private final AckSender acks;
    private final DialTestMetrics metrics;
    private final InstantSource wallClock;
    private final String fallbackCluster;

    ProbeConsumer(String label, String nameServer, String instanceName, DialTestOptions config, AckSender acks,
                  DialTestMetrics metrics, InstantSource wallClock) {
        this.config = config;
        this.acks = acks;
        this.metrics = metrics;
        this.wallClock = wallClock;
        this.fallbackCluster = label;
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
        Map<String, List<AckFrame>> byProducer = new LinkedHashMap<>();
        Map<String, ProbeBody> sample = new LinkedHashMap<>();
        long now = wallClock.millis();
        for (MessageExt message : messages) {
            ProbeBody body = decode(message);
            if (body == null || !body.tracked()) {
                continue;
            }
            if (now - (body.sendEpochMillis() + body.delayMillis()) > config.staleAfter().toMillis()) {
                metrics.probeSkipped(body.cluster(), DialTestMetrics.SKIP_STALE);
                continue;
            }
            String producer = body.ackHost() + ":" + body.ackPort();
            byProducer.computeIfAbsent(producer, p -> new ArrayList<>()).add(
                new AckFrame(body.runId(), body.sequence(), body.kind(), now, message.getReconsumeTimes()));
            sample.putIfAbsent(producer, body);
        }
        for (Map.Entry<String, List<AckFrame>> entry : byProducer.entrySet()) {
            ProbeBody body = sample.get(entry.getKey());
            int undelivered = acks.send(body.ackHost(), body.ackPort(), entry.getValue());
            for (int i = 0; i < undelivered; i++) {
                metrics.ackUndelivered(body.cluster());
            }
        }
        return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
    }

    private ProbeBody decode(MessageExt message) {
        try {
            return ProbeBody.decode(message.getBody());
        } catch (IllegalArgumentException e) {
            metrics.probeSkipped(fallbackCluster, DialTestMetrics.SKIP_MALFORMED);
            return null;
        }
    }

    @Override
    public void close() {
        consumer.shutdown();
    }
}
