package io.lanemq.rocketmq;

import io.lanemq.api.MessagingException;
import io.lanemq.api.spi.BoundConsumer;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.api.spi.BoundListener;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.rocketmq.client.consumer.store.OffsetStore;
import org.apache.rocketmq.client.consumer.store.ReadOffsetType;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;

/**
 * A push consumer of one topic on one cluster, with a RocketMQ client instance of its own.
 * {@link #close()} waits up to {@code rocketmq.shutdownAwaitMs} for messages being consumed, then
 * persists the group's offsets to the broker; messages pulled but not yet consumed are delivered
 * again later, to this group's next member.
 */
final class RocketMqConsumer implements BoundConsumer {
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
            consumer.setMessageListener(new OrderlyListenerAdapter(invoker));
        } else {
            consumer.setMessageListener(new ConcurrentListenerAdapter(invoker));
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
            if (spec.cluster().credentials().isPresent()) {
                ClusterAccess.checkConsumerAccepted(consumer.getDefaultMQPushConsumerImpl().getmQClientFactory(),
                        spec.topic(), spec.consumerGroup());
            }
        } catch (MQClientException | MQBrokerException | RuntimeException e) {
            consumer.shutdown();
            throw RocketMqErrors.startFailed(e, "consumer group '" + spec.consumerGroup() + "' of topic "
                    + spec.topic() + " (tags '" + spec.tagFilter() + "')", spec.cluster().clusterName());
        }
        return new RocketMqConsumer(consumer, spec.topic());
    }

    /**
     * The group's backlog as the brokers see it: per queue, the queue's max offset minus the
     * offset the group committed there (committed offsets trail consumption by the persist
     * interval, so this errs on the side of "not yet drained").
     */
    @Override
    public OptionalLong backlog(String topic) {
        if (closed.get()) {
            return OptionalLong.empty();
        }
        try {
            OffsetStore offsets = consumer.getOffsetStore();
            long total = 0;
            for (MessageQueue queue : consumer.fetchSubscribeMessageQueues(topic)) {
                long committed = offsets.readOffset(queue, ReadOffsetType.READ_FROM_STORE);
                total += Math.max(0, consumer.maxOffset(queue) - Math.max(0, committed));
            }
            return OptionalLong.of(total);
        } catch (MQClientException | RuntimeException e) {
            return OptionalLong.empty();
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

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            consumer.shutdown();
        }
    }
}
