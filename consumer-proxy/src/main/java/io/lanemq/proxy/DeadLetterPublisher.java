package io.lanemq.proxy;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.core.config.ClusterConfig;
import io.lanemq.rocketmq.RawClientSupport;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a group's dead messages to its dead-letter topic on the cluster each came from: RocketMQ's
 * own {@code %DLQ%<group>}, the topic the broker uses when DIRECT consumers give up, so operators
 * find dead messages in one place whichever mode the group consumed in. The topic is created
 * readable and writable on every broker of the cluster before the first send (the broker's own DLQ
 * topics are write-only). A failed send is retried every second; the message's offset stays
 * uncommitted until the send succeeds, so a crash meanwhile delivers it again instead of losing it.
 */
final class DeadLetterPublisher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DeadLetterPublisher.class);

    private final GroupKey group;
    private final String topic;
    private final Map<String, ClusterConfig> clusters;
    private final ScheduledExecutorService executor;
    private final Map<String, DefaultMQProducer> producers = new HashMap<>();

    /** @param executor one thread: sends are serial, in the order messages died */
    DeadLetterPublisher(GroupKey group, Map<String, ClusterConfig> clusters, ScheduledExecutorService executor) {
        this.group = group;
        this.topic = MixAll.getDLQTopic(group.consumerGroup());
        this.clusters = Map.copyOf(clusters);
        this.executor = executor;
    }

    String topic() {
        return topic;
    }

    /** Sends in the background; {@code done} runs after the broker stored the message. */
    void publish(HeldMessage message, Consumer<HeldMessage> done, Runnable failed) {
        executor.execute(() -> attempt(message, done, failed));
    }

    private void attempt(HeldMessage message, Consumer<HeldMessage> done, Runnable failed) {
        String cluster = message.template().getCluster();
        try {
            SendResult result = producer(cluster).send(copy(message));
            if (result.getSendStatus() != SendStatus.SEND_OK) {
                log.warn("{}: {} stored in {} on {} with status {}", group, message, topic, cluster, result.getSendStatus());
            }
            done.accept(message);
        } catch (Exception e) {
            failed.run();
            log.warn("{}: sending {} to {} on {} failed; retrying in 1 s", group, message, topic, cluster, e);
            executor.schedule(() -> attempt(message, done, failed), 1, TimeUnit.SECONDS);
        }
    }

    private DefaultMQProducer producer(String cluster) throws MQClientException, InvalidConfigurationException {
        DefaultMQProducer producer = producers.get(cluster);
        if (producer != null) {
            return producer;
        }
        ClusterConfig config = clusters.get(cluster);
        createTopic(config);
        producer = new DefaultMQProducer("lanemq-proxy-dlq-" + group.consumerGroup());
        RawClientSupport.connect(producer, config.endpoint());
        producer.start();
        producers.put(cluster, producer);
        return producer;
    }

    private void createTopic(ClusterConfig cluster) throws InvalidConfigurationException, MQClientException {
        DefaultMQAdminExt admin = new DefaultMQAdminExt();
        RawClientSupport.connect(admin, cluster.endpoint());
        admin.start();
        try {
            ClusterInfo info = admin.examineBrokerClusterInfo();
            TopicConfig config = new TopicConfig(topic, 1, 1, PermName.PERM_READ | PermName.PERM_WRITE);
            for (BrokerData broker : info.getBrokerAddrTable().values()) {
                String master = broker.getBrokerAddrs().get(MixAll.MASTER_ID);
                if (master != null) {
                    admin.createAndUpdateTopicConfig(master, config);
                }
            }
        } catch (Exception e) {
            throw new MQClientException("cannot create dead-letter topic " + topic + " on cluster " + cluster.name(), e);
        } finally {
            admin.shutdown();
        }
    }

    private Message copy(HeldMessage held) {
        Message dead = new Message(topic, held.source().getBody());
        MessageAccessor.setProperties(dead, new HashMap<>(held.source().getProperties()));
        // Where it died, as the broker records it when DIRECT consumers give up.
        MessageAccessor.putProperty(dead, MessageConst.PROPERTY_RETRY_TOPIC, held.source().getTopic());
        MessageAccessor.putProperty(dead, MessageConst.PROPERTY_ORIGIN_MESSAGE_ID, held.template().getMessageId());
        return dead;
    }

    /** Stops the producers; runs on the publisher's thread so no send is cut in half. */
    @Override
    public void close() {
        producers.values().forEach(DefaultMQProducer::shutdown);
        producers.clear();
    }
}
