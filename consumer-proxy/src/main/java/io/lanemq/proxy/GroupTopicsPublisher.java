package io.lanemq.proxy;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.config.ClusterConfig;
import io.lanemq.rocketmq.RawClientSupport;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;
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
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a group's messages to the group's own topics on the cluster each came from, RocketMQ's
 * {@code %DLQ%<group>} and {@code %RETRY%<group>}: the topics the broker uses for DIRECT consumers
 * of the same group, so dead and retried messages are in one place whichever mode the group runs in.
 * Both are created readable and writable on every broker hosting the group's physical topic (the
 * broker's own DLQ topics are write-only).
 *
 * <p>A dead-letter send is retried every second until it succeeds; the message's offset stays
 * uncommitted meanwhile, so a crash delivers it again instead of losing it. All sends run on one
 * thread.
 */
final class GroupTopicsPublisher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GroupTopicsPublisher.class);

    private final GroupKey group;
    private final String deadLetterTopic;
    private final String retryTopic;
    private final List<GroupSpec.Route> routes;
    private final Map<String, ClusterConfig> clusters = new HashMap<>();
    private final ScheduledExecutorService executor;
    private final Map<String, DefaultMQProducer> producers = new HashMap<>();

    /** @param executor one thread: sends are serial, in the order they were asked for */
    GroupTopicsPublisher(GroupKey group, List<GroupSpec.Route> routes, ScheduledExecutorService executor) {
        this.group = group;
        this.deadLetterTopic = MixAll.getDLQTopic(group.consumerGroup());
        this.retryTopic = MixAll.getRetryTopic(group.consumerGroup());
        this.routes = List.copyOf(routes);
        routes.forEach(route -> clusters.put(route.cluster().name(), route.cluster()));
        this.executor = executor;
    }

    String deadLetterTopic() {
        return deadLetterTopic;
    }

    String retryTopic() {
        return retryTopic;
    }

    /**
     * Creates both topics on every broker that hosts one of the group's physical topics, so the
     * fetchers can subscribe to the retry topic and dead letters stay next to their topic.
     */
    void createTopics() throws MQClientException, InvalidConfigurationException {
        for (GroupSpec.Route route : routes) {
            createTopics(route);
        }
    }

    /** Sends in the background; {@code done} runs after the broker stored the message. */
    void deadLetter(HeldMessage message, Consumer<HeldMessage> done, Runnable failed) {
        executor.execute(() -> sendUntilStored(message, () -> copy(message, deadLetterTopic), done, failed));
    }

    /**
     * Stores the message in the retry topic as a timer message due in {@code delayMillis}, with its attempt count,
     * in the background, retrying every second until the broker stored it; {@code done} runs then.
     */
    void park(HeldMessage message, long delayMillis, Consumer<HeldMessage> done, Runnable failed) {
        long dueMillis = System.currentTimeMillis() + delayMillis;
        executor.execute(() -> sendUntilStored(message, () -> {
            Message copy = retryCopy(message);
            copy.setDeliverTimeMs(dueMillis);
            return copy;
        }, done, failed));
    }

    /**
     * Moves an unacked message to the retry topic (used on shutdown, so its offset can be committed
     * without losing it). Waits for the send; false when it failed or took longer than the timeout.
     */
    boolean requeue(HeldMessage message, long timeoutMillis) throws InterruptedException {
        try {
            return executor.submit(() -> {
                return producer(message.template().getCluster()).send(retryCopy(message)).getSendStatus() == SendStatus.SEND_OK;
            }).get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            log.warn("{}: moving {} to {} failed; it stays uncommitted and comes again from its queue", group, message,
                    retryTopic, e);
            return false;
        }
    }

    /** The message's offset stays uncommitted until a send succeeds, so a crash meanwhile delivers it again. */
    private void sendUntilStored(HeldMessage message, Supplier<Message> copy, Consumer<HeldMessage> done, Runnable failed) {
        String cluster = message.template().getCluster();
        Message stored = copy.get();
        try {
            SendResult result = producer(cluster).send(stored);
            if (result.getSendStatus() != SendStatus.SEND_OK) {
                log.warn("{}: {} stored in {} on {} with status {}", group, message, stored.getTopic(), cluster, result.getSendStatus());
            }
            done.accept(message);
        } catch (Exception e) {
            failed.run();
            log.warn("{}: sending {} to {} on {} failed; retrying in 1 s", group, message, stored.getTopic(), cluster, e);
            executor.schedule(() -> sendUntilStored(message, copy, done, failed), 1, TimeUnit.SECONDS);
        }
    }

    /** A copy for the retry topic that carries the attempts made so far (the producer sends it as the reconsume count). */
    private Message retryCopy(HeldMessage message) {
        Message copy = copy(message, retryTopic);
        MessageAccessor.setReconsumeTime(copy, String.valueOf(message.attempts()));
        return copy;
    }

    private DefaultMQProducer producer(String cluster) throws MQClientException, InvalidConfigurationException {
        DefaultMQProducer producer = producers.get(cluster);
        if (producer != null) {
            return producer;
        }
        producer = new DefaultMQProducer("lanemq-proxy-" + group.consumerGroup());
        RawClientSupport.connect(producer, clusters.get(cluster).endpoint());
        producer.start();
        producers.put(cluster, producer);
        return producer;
    }

    private void createTopics(GroupSpec.Route route) throws InvalidConfigurationException, MQClientException {
        DefaultMQAdminExt admin = new DefaultMQAdminExt();
        RawClientSupport.connect(admin, route.cluster().endpoint());
        admin.start();
        try {
            for (BrokerData broker : admin.examineTopicRouteInfo(route.physicalTopic()).getBrokerDatas()) {
                String master = broker.getBrokerAddrs().get(MixAll.MASTER_ID);
                if (master != null) {
                    for (String topic : new String[] {retryTopic, deadLetterTopic}) {
                        admin.createAndUpdateTopicConfig(master, new TopicConfig(topic, 1, 1, PermName.PERM_READ | PermName.PERM_WRITE));
                    }
                }
            }
        } catch (Exception e) {
            throw new MQClientException("cannot create " + retryTopic + " and " + deadLetterTopic + " next to "
                    + route.physicalTopic() + " on cluster " + route.cluster().name(), e);
        } finally {
            admin.shutdown();
        }
    }

    private static Message copy(HeldMessage held, String topic) {
        Message copy = new Message(topic, held.source().getBody());
        MessageAccessor.setProperties(copy, new HashMap<>(held.source().getProperties()));
        // The original topic, as the broker records it for DIRECT consumers' retries and dead letters.
        String original = held.source().getProperty(MessageConst.PROPERTY_RETRY_TOPIC);
        MessageAccessor.putProperty(copy, MessageConst.PROPERTY_RETRY_TOPIC, original != null ? original : held.source().getTopic());
        MessageAccessor.putProperty(copy, MessageConst.PROPERTY_ORIGIN_MESSAGE_ID, held.template().getMessageId());
        return copy;
    }

    /** Stops the producers; run it on the publisher's thread so no send is cut in half. */
    @Override
    public void close() {
        producers.values().forEach(DefaultMQProducer::shutdown);
        producers.clear();
    }
}
