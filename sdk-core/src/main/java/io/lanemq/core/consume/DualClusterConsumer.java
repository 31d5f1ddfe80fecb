package io.lanemq.core.consume;

import io.lanemq.api.Consumer;
import io.lanemq.api.MessageListener;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Subscription;
import io.lanemq.api.UnknownTopicException;
import io.lanemq.api.spi.BoundConsumer;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.api.spi.MessagingBinding;
import io.lanemq.core.config.ConfigSubscriber;
import io.lanemq.core.config.ConsumerSettings;
import io.lanemq.core.config.ConsumptionMode;
import io.lanemq.core.config.LogicTopicConfig;
import io.lanemq.core.config.PlatformConfig;
import io.lanemq.core.config.TopicRoute;
import io.lanemq.core.metrics.SdkMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DIRECT consumption: one consumer per route of the logic topic, so every cluster (IDC) of the
 * topic is consumed at all times, whatever its send weight. Losing one IDC leaves the others
 * consuming; the lost one's consumer resumes by itself when its brokers return.
 *
 * <p>On a configuration change, only the per-cluster consumers whose spec changed are rebuilt.
 * Same physical topic (thread count, delivery attempts...): the old one is closed first, which
 * finishes its in-flight messages and commits their offsets, then the new one starts from the
 * committed offsets of the same group. New physical topic: the new consumer subscribes to the new
 * topic AND the old one (every member of a RocketMQ-style group must subscribe alike, so a
 * separate old-topic consumer in the same group would be refused its pulls), and once the group's
 * backlog on the old topic is zero after a grace period (sends in flight at the switch land
 * there) it restarts on the new topic alone. Nothing is lost; a message whose offset was not yet
 * committed may be delivered again (at least once).
 */
public final class DualClusterConsumer implements Consumer, ConfigSubscriber {
    private static final Logger log = LoggerFactory.getLogger(DualClusterConsumer.class);
    /** Beyond the send timeout, so a send that started just before the switch has landed. */
    private static final Duration DRAIN_MARGIN = Duration.ofSeconds(1);
    private static final Executor DRAIN_CHECKS = CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS);

    private final Subscription subscription;
    private final MessageListener listener;
    private final MessagingBinding binding;
    private final SdkMetrics metrics;
    /** Told when this consumer closes, so its owner stops tracking it. */
    private final java.util.function.Consumer<AutoCloseable> onClose;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Per cluster: the spec it runs with (drained topics included) and the running consumer. Guarded by {@code this}. */
    private final Map<String, Running> perCluster = new LinkedHashMap<>();

    private DualClusterConsumer(Subscription subscription, MessageListener listener, MessagingBinding binding, SdkMetrics metrics,
                                java.util.function.Consumer<AutoCloseable> onClose) {
        this.subscription = subscription;
        this.listener = listener;
        this.binding = binding;
        this.metrics = metrics;
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
        DualClusterConsumer consumer = new DualClusterConsumer(subscription, listener, binding, metrics, onClose);
        Map<String, BoundConsumerSpec> plan = consumer.plan(config);
        synchronized (consumer) {
            try {
                for (BoundConsumerSpec spec : plan.values()) {
                    consumer.startOne(spec);
                }
            } catch (MessagingException | RuntimeException e) {
                consumer.perCluster.values().forEach(r -> r.consumer.close());
                throw e;
            }
        }
        return consumer;
    }

    /** The bound consumer specs the configuration asks for, by cluster. */
    private Map<String, BoundConsumerSpec> plan(PlatformConfig config) throws MessagingException {
        String logicTopic = subscription.logicTopic();
        LogicTopicConfig topic = config.topic(logicTopic).orElseThrow(() -> new UnknownTopicException(
                "unknown logic topic; the platform configuration has " + config.topics().keySet(), logicTopic));
        ConsumerSettings settings = topic.consumerGroups().get(subscription.consumerGroup());
        if (settings == null) {
            throw new UnknownTopicException("consumer group '" + subscription.consumerGroup()
                    + "' is not declared for this logic topic; declared: " + topic.consumerGroups().keySet(), logicTopic);
        }
        if (settings.mode() != ConsumptionMode.DIRECT) {
            throw new InvalidConfigurationException("consumer group '" + subscription.consumerGroup() + "' of logic topic '"
                    + logicTopic + "' is configured for " + settings.mode()
                    + " consumption, which needs the consumer proxy; this SDK version consumes DIRECT only");
        }
        Map<String, BoundConsumerSpec> plan = new LinkedHashMap<>();
        for (TopicRoute route : topic.routes()) {
            plan.put(route.cluster(), new BoundConsumerSpec(config.cluster(route.cluster()).endpoint(),
                    subscription.consumerGroup(), route.physicalTopic(), subscription.tagFilter(), subscription.ordered(),
                    settings.threads(), settings.maxDeliveryAttempts(),
                    BoundConsumerSpec.StartPosition.valueOf(settings.startPosition().name()), settings.batchSize()));
        }
        return plan;
    }

    private void startOne(BoundConsumerSpec spec) throws MessagingException {
        String cluster = spec.cluster().clusterName();
        BoundConsumer started = binding.createConsumer(spec,
                new ListenerAdapter(subscription.logicTopic(), subscription.consumerGroup(), cluster, listener, metrics));
        perCluster.put(cluster, new Running(spec, started));
    }

    @Override
    public List<String> conflicts(PlatformConfig next) {
        try {
            plan(next);
            return List.of();
        } catch (MessagingException e) {
            return List.of("a running consumer of group '" + subscription.consumerGroup() + "' needs it: " + e.getMessage());
        }
    }

    @Override
    public synchronized void apply(PlatformConfig previous, PlatformConfig next) {
        if (closed.get()) {
            return;
        }
        Map<String, BoundConsumerSpec> plan;
        try {
            plan = plan(next);
        } catch (MessagingException e) {
            throw new IllegalStateException("a change that conflicts with this consumer was applied: " + e.getMessage(), e);
        }
        Duration grace = next.producer().sendTimeout().plus(DRAIN_MARGIN);
        for (String cluster : new ArrayList<>(perCluster.keySet())) {
            Running running = perCluster.get(cluster);
            BoundConsumerSpec wanted = plan.get(cluster);
            if (running.spec.draining(List.of()).equals(wanted)) {
                continue;
            }
            running.consumer.close();
            perCluster.remove(cluster);
            if (wanted != null) {
                // The topic it leaves still holds messages, and sends in flight at the switch land there too.
                List<String> drain = new ArrayList<>(running.spec.drainTopics());
                drain.add(running.spec.topic());
                drain.remove(wanted.topic());
                restart(wanted.draining(drain.stream().distinct().toList()), grace);
            }
        }
        for (BoundConsumerSpec spec : plan.values()) {
            if (!perCluster.containsKey(spec.cluster().clusterName())) {
                restart(spec, grace);
            }
        }
    }

    private void restart(BoundConsumerSpec spec, Duration grace) {
        try {
            startOne(spec);
            if (!spec.drainTopics().isEmpty()) {
                checkDrained(spec.cluster().clusterName(), System.nanoTime() + grace.toNanos());
            }
        } catch (MessagingException | RuntimeException e) {
            // Its messages wait in the broker; the next change (or a restart) starts it.
            log.error("could not start the consumer of {} on {} after a configuration change", subscription,
                    spec.cluster().clusterName(), e);
        }
    }

    /**
     * Once the grace has passed and the group's backlog on every drained topic is zero, restarts
     * the cluster's consumer on its current topic alone; until then checks again every second.
     * An unknown backlog keeps it draining.
     */
    private void checkDrained(String cluster, long notBefore) {
        DRAIN_CHECKS.execute(() -> {
            synchronized (this) {
                Running running = perCluster.get(cluster);
                if (closed.get() || running == null || running.spec.drainTopics().isEmpty()) {
                    return;
                }
                boolean drained = System.nanoTime() >= notBefore && running.spec.drainTopics().stream()
                        .allMatch(topic -> running.consumer.backlog(topic).orElse(-1) == 0);
                if (!drained) {
                    checkDrained(cluster, notBefore);
                    return;
                }
                running.consumer.close();
                perCluster.remove(cluster);
                restart(running.spec.draining(List.of()), Duration.ZERO);
                log.info("consumer of {} on {} drained {}; consuming {} alone", subscription, cluster,
                        running.spec.drainTopics(), running.spec.topic());
            }
        });
    }

    /** Whether a consumer still drains a topic a change moved away from. */
    public synchronized boolean isDraining() {
        return perCluster.values().stream().anyMatch(running -> !running.spec.drainTopics().isEmpty());
    }

    /** The spec each cluster's consumer currently runs with: what a reload changed, observably. */
    public synchronized Map<String, BoundConsumerSpec> runningSpecs() {
        Map<String, BoundConsumerSpec> specs = new LinkedHashMap<>();
        perCluster.forEach((cluster, running) -> specs.put(cluster, running.spec));
        return specs;
    }

    public Optional<BoundConsumerSpec> runningSpec(String cluster) {
        return Optional.ofNullable(runningSpecs().get(cluster));
    }

    @Override
    public Subscription subscription() {
        return subscription;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            synchronized (this) {
                perCluster.values().forEach(r -> r.consumer.close());
                perCluster.clear();
            }
            onClose.accept(this);
        }
    }

    @Override
    public String toString() {
        return "DualClusterConsumer[" + subscription + "]";
    }

    private record Running(BoundConsumerSpec spec, BoundConsumer consumer) {
    }
}
