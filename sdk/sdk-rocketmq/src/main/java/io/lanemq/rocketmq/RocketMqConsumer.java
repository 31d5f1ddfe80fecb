package io.lanemq.rocketmq;

import io.lanemq.api.MessagingException;
import io.lanemq.api.spi.BoundConsumer;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.api.spi.BoundListener;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.exception.OffsetNotFoundException;
import org.apache.rocketmq.client.impl.FindBrokerResult;
import org.apache.rocketmq.client.impl.factory.MQClientInstance;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.exception.RemotingException;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.header.QueryConsumerOffsetRequestHeader;

/**
 * A push consumer of one topic on one cluster, with a RocketMQ client instance of its own.
 * {@link #close()} waits up to {@code rocketmq.shutdownAwaitMs} for messages being consumed, then
 * persists the group's offsets to the broker; messages pulled but not yet consumed are delivered
 * again later, to this group's next member.
 */
final class RocketMqConsumer implements BoundConsumer {
    /** As RocketMQ's own offset store waits for a committed offset. */
    private static final long OFFSET_QUERY_TIMEOUT_MS = 5_000;
    /** As RocketMQ's own route queries (mqClientApiTimeout's default). */
    private static final long ROUTE_QUERY_TIMEOUT_MS = 3_000;

    private final DefaultMQPushConsumer consumer;
    private final String topic;
    private final AtomicBoolean closed = new AtomicBoolean();

    private RocketMqConsumer(DefaultMQPushConsumer consumer, String topic) {
        this.consumer = consumer;
        this.topic = topic;
    }

    static RocketMqConsumer start(BoundConsumerSpec spec, BoundListener listener) throws MessagingException {
        EndpointTuning settings = EndpointTuning.of(spec.cluster());
        DefaultMQPushConsumer consumer = RocketMqClients.newPushConsumer(spec, settings);
        ListenerInvoker invoker = new ListenerInvoker(listener, spec.cluster().clusterName(), spec.consumerGroup(), spec.topic());
        if (spec.ordered()) {
            consumer.setMessageListener(new OrderlyListenerAdapter(invoker,
                    (message, level) -> consumer.sendMessageBack(message, level, message.getBrokerName()), spec.retryBackoff()));
        } else {
            consumer.setMessageListener(new ConcurrentListenerAdapter(invoker, spec.retryBackoff()));
        }
        try {
            consumer.subscribe(spec.topic(), spec.tagFilter());
            for (String draining : spec.drainTopics()) {
                consumer.subscribe(draining, spec.tagFilter());
            }
            for (String shadow : spec.shadowTopics()) {
                consumer.subscribe(shadow, spec.tagFilter());
            }
            consumer.start();
            requireRoute(consumer, spec);
            if (spec.cluster().credentials().isPresent()) {
                ClusterAccess.checkConsumerAccepted(consumer.getDefaultMQPushConsumerImpl().getmQClientFactory(),
                        spec.topic(), spec.consumerGroup());
            }
        } catch (MessagingException e) {
            consumer.shutdown();
            throw e;
        } catch (MQClientException | MQBrokerException | RuntimeException e) {
            consumer.shutdown();
            throw RocketMqErrors.startFailed(e, "consumer group '" + spec.consumerGroup() + "' of topic "
                    + spec.topic() + " (tags '" + spec.tagFilter() + "')", spec.cluster().clusterName());
        }
        return new RocketMqConsumer(consumer, spec.topic());
    }

    /**
     * Fails the start unless the consumer knows where the topic's queues are. {@code start()} asks the name server for
     * the route and throws when it cannot connect, but the route update gives up silently when another consumer of the
     * same client instance holds its lock for 3 s ({@code MQClientInstance.lockNamesrv}), and the client then asks
     * again only every {@code pollNameServerInterval} (30 s): a consumer started so would look attached and consume
     * nothing. So the SDK asks once more, directly, and says whether the name server did not answer or does not know
     * the topic. Neither is final: a name server back from a partition knows a topic only once its brokers registered
     * again (their next heartbeat), so an unknown topic is retried as soon as an unanswered request.
     */
    private static void requireRoute(DefaultMQPushConsumer consumer, BoundConsumerSpec spec)
            throws MessagingException, MQClientException {
        var subscribed = consumer.getDefaultMQPushConsumerImpl().getRebalanceImpl().getTopicSubscribeInfoTable().get(spec.topic());
        if (subscribed != null && !subscribed.isEmpty()) {
            return;
        }
        MQClientInstance client = consumer.getDefaultMQPushConsumerImpl().getmQClientFactory();
        if (client.updateTopicRouteInfoFromNameServer(spec.topic())) {
            subscribed = consumer.getDefaultMQPushConsumerImpl().getRebalanceImpl().getTopicSubscribeInfoTable().get(spec.topic());
            if (subscribed != null && !subscribed.isEmpty()) {
                return;
            }
        }
        try {
            client.getMQClientAPIImpl().getTopicRouteInfoFromNameServer(spec.topic(), ROUTE_QUERY_TIMEOUT_MS);
        } catch (MQClientException e) {
            if (e.getResponseCode() == ResponseCode.TOPIC_NOT_EXIST) {
                throw new MessagingException("cannot start RocketMQ consumer group '" + spec.consumerGroup()
                        + "': the name server of cluster '" + spec.cluster().clusterName() + "' does not know topic "
                        + spec.topic() + " (yet: its brokers register it with their heartbeat; if it lasts, create the topic"
                        + " there or fix the platform configuration)", null, spec.cluster().clusterName(), e);
            }
            throw e;
        } catch (RemotingException e) {
            throw new MQClientException("no route of topic " + spec.topic() + " yet: its name server did not answer", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MQClientException("interrupted while asking the route of topic " + spec.topic(), e);
        }
        throw new MQClientException("no route of topic " + spec.topic() + " yet", null);
    }

    /**
     * The group's backlog as the brokers see it: per queue, the queue's max offset minus the
     * offset the group committed there (committed offsets trail consumption by the persist
     * interval, so this errs on the side of "not yet drained"; a queue without a committed offset
     * counts from 0).
     */
    @Override
    public OptionalLong backlog(String topic) {
        if (closed.get()) {
            return OptionalLong.empty();
        }
        try {
            MQClientInstance client = consumer.getDefaultMQPushConsumerImpl().getmQClientFactory();
            long total = 0;
            for (MessageQueue queue : consumer.fetchSubscribeMessageQueues(topic)) {
                total += Math.max(0, consumer.maxOffset(queue) - Math.max(0, committedOnBroker(client, queue)));
            }
            return OptionalLong.of(total);
        } catch (MQClientException | MQBrokerException | RemotingException | RuntimeException e) {
            return OptionalLong.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OptionalLong.empty();
        }
    }

    /**
     * The group's committed offset of {@code queue} on its broker, -1 when it has none. Asked here rather than
     * through the consumer's offset store: the store's READ_FROM_STORE also writes the broker's answer into the
     * consumer's own offset table, putting back an older offset than the one it just consumed up to; the next
     * persist then commits the older one, and an idle queue keeps it until its long poll returns (many seconds
     * instead of the 1 s persist interval), and a consumer closed meanwhile commits the older offset, so those
     * messages come again.
     */
    private long committedOnBroker(MQClientInstance client, MessageQueue queue)
            throws MQClientException, MQBrokerException, RemotingException, InterruptedException {
        String brokerName = client.getBrokerNameFromMessageQueue(queue);
        FindBrokerResult broker = client.findBrokerAddressInSubscribe(brokerName, MixAll.MASTER_ID, true);
        if (broker == null) {
            client.updateTopicRouteInfoFromNameServer(queue.getTopic());
            broker = client.findBrokerAddressInSubscribe(brokerName, MixAll.MASTER_ID, false);
        }
        if (broker == null) {
            throw new MQClientException("no broker " + brokerName + " for " + queue, null);
        }
        QueryConsumerOffsetRequestHeader request = new QueryConsumerOffsetRequestHeader();
        request.setTopic(queue.getTopic());
        request.setConsumerGroup(consumer.getConsumerGroup());
        request.setQueueId(queue.getQueueId());
        request.setBrokerName(queue.getBrokerName());
        try {
            return client.getMQClientAPIImpl().queryConsumerOffset(broker.getBrokerAddr(), request, OFFSET_QUERY_TIMEOUT_MS);
        } catch (OffsetNotFoundException e) {
            return -1;
        }
    }

    /** The client ids a broker of the topic lists for the group (it drops a member whose connection closes), parsed for tags. */
    @Override
    public Optional<List<String>> memberTags() {
        if (closed.get()) {
            return Optional.empty();
        }
        try {
            List<String> clientIds = consumer.getDefaultMQPushConsumerImpl().getmQClientFactory()
                    .findConsumerIdList(topic, consumer.getConsumerGroup());
            if (clientIds == null) {
                return Optional.empty(); // no broker of the topic answered
            }
            return Optional.of(clientIds.stream().map(RocketMqClients::memberTag).flatMap(Optional::stream).toList());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * RocketMQ's suspend: no new pull is sent (the client looks again every second); a long poll already held by a
     * broker may still return one batch per queue, which the core holds while paused.
     */
    @Override
    public void pause() {
        consumer.suspend();
    }

    @Override
    public void resume() {
        consumer.resume();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            consumer.shutdown();
        }
    }
}
