package io.lanemq.rocketmq;

import io.lanemq.api.MessagingException;
import io.lanemq.api.spi.ClusterEndpoint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.ResponseCode;

/**
 * A consumer group's dead letters on one cluster (RocketMQ's {@code %DLQ%<group>}, where the broker puts what DIRECT
 * consumers gave up on and the consumer proxy puts what it gave up on), for operators to see and replay them.
 *
 * <p>Read by queue offsets with a pull consumer of its own group that never commits: reading changes neither the
 * application's group nor what a later read finds (RocketMQ cannot delete a message, so a dead letter stays until its
 * commit-log file expires). A read goes from the oldest stored message to the end as it was when the read began.
 * A group that never dead-lettered anything has no such topic yet: it reads as empty.
 *
 * <p>Not thread-safe: one caller reads, then closes, which stops the client.
 */
public final class DeadLetterQueue implements AutoCloseable {
    private static final long TIMEOUT_MS = 5_000;
    private static final int PULL_BATCH = 32;
    /** The reader's own consumer group: never the application's, and it commits nothing. */
    private static final String READER_GROUP = "lanemq_dlq_reader";

    private final String cluster;
    private final String topic;
    private final DefaultMQPullConsumer consumer;
    private final List<MessageQueue> queues;

    private DeadLetterQueue(String cluster, String topic, DefaultMQPullConsumer consumer, List<MessageQueue> queues) {
        this.cluster = cluster;
        this.topic = topic;
        this.consumer = consumer;
        this.queues = queues;
    }

    /**
     * Connects to {@code endpoint} and finds the dead-letter topic's queues.
     *
     * @param consumerGroup the group's name on the brokers (with its environment's suffix)
     * @throws MessagingException the cluster cannot be reached or refuses the read
     */
    public static DeadLetterQueue open(ClusterEndpoint endpoint, String consumerGroup) throws MessagingException {
        String topic = GroupTopics.deadLetterTopic(consumerGroup);
        DefaultMQPullConsumer consumer = new DefaultMQPullConsumer(READER_GROUP, RawClientSupport.rpcHook(endpoint));
        RawClientSupport.connect(consumer, endpoint, RocketMqClients.instanceName(endpoint.clusterName()) + "-dlq-"
                + UUID.randomUUID());
        try {
            consumer.start();
            List<MessageQueue> queues;
            try {
                queues = new ArrayList<>(consumer.fetchSubscribeMessageQueues(topic));
            } catch (MQClientException e) {
                if (!topicMissing(e)) {
                    throw e;
                }
                queues = new ArrayList<>();
            }
            queues.sort(Comparator.comparing(MessageQueue::getBrokerName).thenComparingInt(MessageQueue::getQueueId));
            return new DeadLetterQueue(endpoint.clusterName(), topic, consumer, List.copyOf(queues));
        } catch (Exception e) {
            consumer.shutdown();
            throw RawClientSupport.failed(e, "cannot read " + topic, endpoint.clusterName());
        }
    }

    public String cluster() {
        return cluster;
    }

    /** {@code %DLQ%<group>}. */
    public String topic() {
        return topic;
    }

    /** The messages stored now, of every topic the group consumes: what the queues' offsets span. */
    public long stored() throws MessagingException {
        long stored = 0;
        try {
            for (MessageQueue queue : queues) {
                stored += consumer.maxOffset(queue) - consumer.minOffset(queue);
            }
        } catch (MQClientException e) {
            throw RawClientSupport.failed(e, "cannot read the offsets of " + topic, cluster);
        }
        return stored;
    }

    /**
     * Hands each dead letter, oldest first per queue, to {@code sink} until it answers false or the queues' ends as they
     * were when the read began are reached.
     */
    public void read(Predicate<DeadLetter> sink) throws MessagingException {
        try {
            for (MessageQueue queue : queues) {
                long end = consumer.maxOffset(queue);
                long offset = consumer.minOffset(queue);
                while (offset < end) {
                    PullResult pulled = consumer.pull(queue, "*", offset, (int) Math.min(PULL_BATCH, end - offset), TIMEOUT_MS);
                    if (pulled.getNextBeginOffset() <= offset) {
                        break; // nothing more the broker will give from here (NO_NEW_MSG at the end)
                    }
                    if (pulled.getMsgFoundList() != null) {
                        for (MessageExt message : pulled.getMsgFoundList()) {
                            if (message.getQueueOffset() < end && !sink.test(deadLetter(message))) {
                                return;
                            }
                        }
                    }
                    offset = pulled.getNextBeginOffset();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw RawClientSupport.failed(e, "interrupted reading " + topic, cluster);
        } catch (Exception e) {
            throw RawClientSupport.failed(e, "cannot read " + topic, cluster);
        }
    }

    private DeadLetter deadLetter(MessageExt message) {
        String original = message.getProperty(MessageConst.PROPERTY_RETRY_TOPIC);
        return new DeadLetter(cluster, original != null ? original : message.getTopic(), MessageMapping.toBoundMessage(message),
                Instant.ofEpochMilli(message.getStoreTimestamp()), message.getReconsumeTimes());
    }

    private static boolean topicMissing(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof MQClientException client && client.getResponseCode() == ResponseCode.TOPIC_NOT_EXIST) {
                return true;
            }
        }
        return false;
    }

    /** Stops the reader's client; nothing was committed. */
    @Override
    public void close() {
        consumer.shutdown();
    }
}
