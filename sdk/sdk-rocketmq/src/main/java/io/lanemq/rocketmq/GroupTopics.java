package io.lanemq.rocketmq;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.spi.ClusterEndpoint;
import java.util.HashMap;
import java.util.Map;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.topic.TopicValidator;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;

/**
 * A consumer group's own topics on each cluster, RocketMQ's {@code %DLQ%<group>} and {@code %RETRY%<group>}: the
 * topics the broker uses for DIRECT consumers of the same group, so dead and retried messages are in one place
 * whichever way the group is consumed. For a service that consumes below the SDK's routing (the consumer proxy),
 * which keeps the policy (when to dead-letter or retry, how often to try again).
 *
 * <p>Both are created readable and writable on every broker hosting the group's physical topic (the broker's own
 * DLQ topics are write-only). A copy sent to them carries the original's body and properties, the original topic
 * (as the broker records it for DIRECT consumers' retries and dead letters) and the original message id.
 *
 * <p>Not thread-safe: one thread sends and closes (the proxy's publisher thread), so no send is cut in half. Sends
 * block until the broker answers.
 */
public final class GroupTopics implements AutoCloseable {

    /** What RocketMQ's admin client waits for an answer by default. */
    private static final long ADMIN_TIMEOUT_MILLIS = 5_000;

    private final String consumerGroup;
    private final String producerGroup;
    private final String deadLetterTopic;
    private final String retryTopic;
    private final Map<String, ClusterEndpoint> clusters;
    private final Map<String, DefaultMQProducer> producers = new HashMap<>();

    /**
     * @param producerGroup the RocketMQ producer group the copies are sent as
     * @param clusters      the clusters the group is consumed on, by name
     */
    public GroupTopics(String consumerGroup, String producerGroup, Map<String, ClusterEndpoint> clusters) {
        this.consumerGroup = consumerGroup;
        this.producerGroup = producerGroup;
        this.deadLetterTopic = deadLetterTopic(consumerGroup);
        this.retryTopic = retryTopic(consumerGroup);
        this.clusters = Map.copyOf(clusters);
    }

    public static String deadLetterTopic(String consumerGroup) {
        return MixAll.getDLQTopic(consumerGroup);
    }

    public static String retryTopic(String consumerGroup) {
        return MixAll.getRetryTopic(consumerGroup);
    }

    public String deadLetterTopic() {
        return deadLetterTopic;
    }

    public String retryTopic() {
        return retryTopic;
    }

    /**
     * Creates both topics on every broker of {@code cluster} that hosts {@code physicalTopic}, through the cluster's
     * producer's client (what an admin client would do, without the tools' dependencies in the binding).
     */
    public void create(String cluster, String physicalTopic) throws MessagingException {
        try {
            MQClientAPIImpl brokers = producer(cluster).getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl();
            for (BrokerData broker : brokers.getTopicRouteInfoFromNameServer(physicalTopic, ADMIN_TIMEOUT_MILLIS).getBrokerDatas()) {
                String master = broker.getBrokerAddrs().get(MixAll.MASTER_ID);
                if (master != null) {
                    for (String topic : new String[] {retryTopic, deadLetterTopic}) {
                        brokers.createTopic(master, TopicValidator.AUTO_CREATE_TOPIC_KEY_TOPIC,
                                new TopicConfig(topic, 1, 1, PermName.PERM_READ | PermName.PERM_WRITE), ADMIN_TIMEOUT_MILLIS);
                    }
                }
            }
        } catch (Exception e) {
            throw RawClientSupport.failed(e, "cannot create " + retryTopic + " and " + deadLetterTopic + " next to "
                    + physicalTopic + " on cluster " + cluster, cluster);
        }
    }

    /**
     * Stores a copy of {@code message}, read on {@code cluster}, in the dead-letter topic there.
     *
     * @param messageId the message's id as the group's consumers knew it
     * @return true when stored as the broker is configured to (flushed, replicated), false when stored but not yet so
     */
    public boolean deadLetter(String cluster, FetchedMessage message, String messageId) throws MessagingException {
        return send(cluster, copy(message, messageId, deadLetterTopic));
    }

    /**
     * Stores a copy of {@code message}, read on {@code cluster}, in the retry topic there, carrying {@code attempts}
     * as its reconsume count; due at {@code dueMillis} (epoch millis, a broker timer message) unless 0 (due at once).
     *
     * @return as {@link #deadLetter}
     */
    public boolean retry(String cluster, FetchedMessage message, String messageId, int attempts, long dueMillis)
            throws MessagingException {
        Message copy = copy(message, messageId, retryTopic);
        MessageAccessor.setReconsumeTime(copy, String.valueOf(attempts));
        if (dueMillis > 0) {
            copy.setDeliverTimeMs(dueMillis);
        }
        return send(cluster, copy);
    }

    private boolean send(String cluster, Message copy) throws MessagingException {
        try {
            return SendStatuses.storedAsConfigured(producer(cluster).send(copy));
        } catch (Exception e) {
            throw RocketMqErrors.sendFailed(e, cluster, copy.getTopic());
        }
    }

    private DefaultMQProducer producer(String cluster) throws Exception {
        DefaultMQProducer producer = producers.get(cluster);
        if (producer != null) {
            return producer;
        }
        ClusterEndpoint endpoint = endpoint(cluster);
        producer = RocketMqClients.withQuietAccumulator(new DefaultMQProducer(producerGroup,
                ClusterAccess.rpcHook(endpoint)));
        RawClientSupport.connect(producer, endpoint);
        producer.start();
        producers.put(cluster, producer);
        return producer;
    }

    private ClusterEndpoint endpoint(String cluster) throws InvalidConfigurationException {
        ClusterEndpoint endpoint = clusters.get(cluster);
        if (endpoint == null) {
            throw new InvalidConfigurationException("no endpoint of cluster " + cluster + " for the topics of group "
                    + consumerGroup);
        }
        return endpoint;
    }

    private static Message copy(FetchedMessage source, String messageId, String topic) {
        Message copy = new Message(topic, source.body());
        MessageAccessor.setProperties(copy, new HashMap<>(source.properties()));
        String original = source.property(MessageConst.PROPERTY_RETRY_TOPIC);
        MessageAccessor.putProperty(copy, MessageConst.PROPERTY_RETRY_TOPIC, original != null ? original : source.queue().topic());
        MessageAccessor.putProperty(copy, MessageConst.PROPERTY_ORIGIN_MESSAGE_ID, messageId);
        return copy;
    }

    /** Stops the producers. */
    @Override
    public void close() {
        producers.values().forEach(DefaultMQProducer::shutdown);
        producers.clear();
    }
}
