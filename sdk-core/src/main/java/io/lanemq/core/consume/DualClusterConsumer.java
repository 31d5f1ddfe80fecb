package io.lanemq.core.consume;

import io.lanemq.api.Consumer;
import io.lanemq.api.MessageListener;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Subscription;
import io.lanemq.api.UnknownTopicException;
import io.lanemq.api.spi.BoundConsumer;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.api.spi.MessagingBinding;
import io.lanemq.core.config.ConsumerSettings;
import io.lanemq.core.config.LogicTopicConfig;
import io.lanemq.core.config.PlatformConfig;
import io.lanemq.core.config.TopicRoute;
import io.lanemq.core.metrics.SdkMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * DIRECT consumption: one consumer per route of the logic topic, so every cluster (IDC) of the
 * topic is consumed at all times, whatever its send weight. Losing one IDC leaves the others
 * consuming; the lost one's consumer resumes by itself when its brokers return.
 */
public final class DualClusterConsumer implements Consumer {
    private final Subscription subscription;
    private final List<BoundConsumer> perCluster;
    /** Told when this consumer closes, so its owner stops tracking it. */
    private final java.util.function.Consumer<AutoCloseable> onClose;
    private final AtomicBoolean closed = new AtomicBoolean();

    private DualClusterConsumer(Subscription subscription, List<BoundConsumer> perCluster,
                                java.util.function.Consumer<AutoCloseable> onClose) {
        this.subscription = subscription;
        this.perCluster = perCluster;
        this.onClose = onClose;
    }

    /**
     * Subscribes on every cluster of the logic topic.
     *
     * @throws UnknownTopicException the topic, or the group on it, is not configured
     */
    public static DualClusterConsumer start(Subscription subscription, MessageListener listener, PlatformConfig config,
                                            MessagingBinding binding, SdkMetrics metrics,
                                            java.util.function.Consumer<AutoCloseable> onClose)
            throws MessagingException {
        String logicTopic = subscription.logicTopic();
        LogicTopicConfig topic = config.topic(logicTopic).orElseThrow(() -> new UnknownTopicException(
                "unknown logic topic; the platform configuration has " + config.topics().keySet(), logicTopic));
        ConsumerSettings settings = topic.consumerGroups().get(subscription.consumerGroup());
        if (settings == null) {
            throw new UnknownTopicException("consumer group '" + subscription.consumerGroup()
                    + "' is not declared for this logic topic; declared: " + topic.consumerGroups().keySet(), logicTopic);
        }
        List<BoundConsumer> started = new ArrayList<>();
        try {
            for (TopicRoute route : topic.routes()) {
                BoundConsumerSpec spec = new BoundConsumerSpec(config.cluster(route.cluster()).endpoint(),
                        subscription.consumerGroup(), route.physicalTopic(), subscription.tagFilter(), subscription.ordered(),
                        settings.threads(), settings.maxDeliveryAttempts(),
                        BoundConsumerSpec.StartPosition.valueOf(settings.startPosition().name()));
                started.add(binding.createConsumer(spec,
                        new ListenerAdapter(logicTopic, subscription.consumerGroup(), route.cluster(), listener, metrics)));
            }
        } catch (MessagingException | RuntimeException e) {
            started.forEach(BoundConsumer::close);
            throw e;
        }
        return new DualClusterConsumer(subscription, List.copyOf(started), onClose);
    }

    @Override
    public Subscription subscription() {
        return subscription;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            perCluster.forEach(BoundConsumer::close);
            onClose.accept(this);
        }
    }
}
