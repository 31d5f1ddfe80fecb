package io.lanemq.core.internal.consume;

import io.lanemq.api.Consumer;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.MessageListener;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Subscription;
import io.lanemq.api.spi.MessagingBinding;
import io.lanemq.config.ConfigSubscriber;
import io.lanemq.config.ConsumptionMode;
import io.lanemq.config.PlatformConfig;
import io.lanemq.core.internal.consume.listener.PauseGate;
import io.lanemq.core.internal.consume.proxy.ProxyConsumer;
import io.lanemq.core.internal.consume.proxy.ProxyIdentity;
import io.lanemq.core.metrics.SdkMetrics;
import io.micrometer.core.instrument.Meter;
import io.lanemq.support.Ticker;
import java.io.UncheckedIOException;
import io.lanemq.support.attach.AttachPolicy;
import io.lanemq.core.internal.consume.attach.ClusterAttachments;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A subscription, consumed from every cluster of its logic topic in the mode the platform
 * configuration gives its group: DIRECT ({@link DirectConsumption}: the SDK's own consumers on each
 * cluster) or PROXY ({@link ProxyConsumer}: pushed by the consumer proxy, which consumes both
 * clusters as the same RocketMQ consumer group, so offsets carry over between modes).
 *
 * <p>A configuration change within a mode is applied by that mode in place. A change of mode (or of
 * the proxy's endpoints) starts the new path first, then closes the old one, which finishes what its
 * listener holds and commits (DIRECT) or acks (PROXY) it: both paths consume the group for a moment,
 * so a message may come twice, and none is lost. For the same reason an ordered subscription may see
 * a sharding key's messages out of order for the moment of a mode switch.
 *
 * <p>{@link #pause()} is kept here, across mode switches: a path started while paused starts paused.
 */
public final class DualClusterConsumer implements Consumer, ConfigSubscriber {
    private static final Logger log = LoggerFactory.getLogger(DualClusterConsumer.class);
    /** Beyond the send timeout, so a send that started just before a topic move has landed. */
    private static final Duration DRAIN_MARGIN = Duration.ofSeconds(1);
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private final Subscription subscription;
    private final MessageListener listener;
    private final MessagingBinding binding;
    private final SdkMetrics metrics;
    private final ProxyIdentity identity;
    private final Ticker ticker;
    /** How often DIRECT consumption asks each cluster for the group's lag. */
    private final Duration lagEvery;
    /** This subscription's part in lanes; empty when the client takes none. */
    private final Optional<LaneMembership> lanes;
    /** Told when this consumer closes, so its owner stops tracking it. */
    private final java.util.function.Consumer<AutoCloseable> onClose;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** This subscription's {@link SdkMetrics#TAG_SUBSCRIPTION}: what tells its gauges from another's of the same group. */
    private final String id = ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet();
    private final List<Meter> modeGauges;
    /** The client's record of clusters its consumers could not attach to. */
    private final ClusterAttachments attachments;
    /** The pause, which DIRECT consumption's messages pass; PROXY consumption withholds credits instead. */
    private final PauseGate gate = new PauseGate();
    /** Exactly one of the two runs; guarded by {@code this}. */
    private DirectConsumption direct;
    private ProxyConsumer proxy;
    /** The mode of the path started last; read by the mode gauge without the lock, which a switch holds while the old path stops. */
    private volatile ConsumptionMode mode;

    private DualClusterConsumer(Subscription subscription, MessageListener listener, ConsumerContext context,
                                ProxyIdentity identity, Optional<LaneMembership> lanes, Duration lagEvery,
                                java.util.function.Consumer<AutoCloseable> onClose) {
        this.attachments = context.attachments();
        this.subscription = subscription;
        this.lagEvery = lagEvery;
        this.listener = listener;
        this.binding = context.binding();
        this.metrics = context.metrics();
        this.identity = identity;
        this.ticker = context.ticker();
        this.lanes = lanes;
        this.onClose = onClose;
        this.modeGauges = metrics.consumerModeGauges(subscription.logicTopic(), subscription.consumerGroup(), id, () -> mode);
    }

    /**
     * Starts consuming in the group's configured mode.
     *
     * @param listener what DIRECT consumers run (with lanes, the lane-routing listener); PROXY mode runs
     *                 {@link LaneMembership#local()} instead when there are lanes, since the proxy routes them
     * @param lanes    the subscription's part in lanes; empty when the client takes none
     * @throws io.lanemq.api.UnknownTopicException the topic, or the group on it, is not configured
     * @throws InvalidConfigurationException the group is in PROXY mode and this client cannot follow it (no token, no CA file)
     */
    public static DualClusterConsumer start(Subscription subscription, MessageListener listener, PlatformConfig config,
                                            MessagingBinding binding, SdkMetrics metrics, ProxyIdentity identity,
                                            Optional<LaneMembership> lanes, Ticker ticker,
                                            java.util.function.Consumer<AutoCloseable> onClose) throws MessagingException {
        return start(subscription, listener, config, binding, metrics, identity, lanes, ticker, DirectConsumption.LAG_EVERY, onClose,
                new ClusterAttachments(AttachPolicy.DEFAULT, metrics, ticker, InstantSource.system()));
    }

    /**
     * As above, recording in {@code attachments} (the client's) the clusters its DIRECT consumption could not attach to
     * yet, under the client's attach policy: the start returns within the policy's start wait, on the clusters that
     * answered, and attaches the others in the background.
     */
    public static DualClusterConsumer start(Subscription subscription, MessageListener listener, PlatformConfig config,
                                            MessagingBinding binding, SdkMetrics metrics, ProxyIdentity identity,
                                            Optional<LaneMembership> lanes, Ticker ticker,
                                            java.util.function.Consumer<AutoCloseable> onClose, ClusterAttachments attachments)
            throws MessagingException {
        return start(subscription, listener, config, binding, metrics, identity, lanes, ticker, DirectConsumption.LAG_EVERY, onClose,
                attachments);
    }

    /** As above, asking the clusters for a DIRECT group's lag every {@code lagEvery} (tests shorten it). */
    static DualClusterConsumer start(Subscription subscription, MessageListener listener, PlatformConfig config,
                                     MessagingBinding binding, SdkMetrics metrics, ProxyIdentity identity,
                                     Optional<LaneMembership> lanes, Ticker ticker, Duration lagEvery,
                                     java.util.function.Consumer<AutoCloseable> onClose) throws MessagingException {
        return start(subscription, listener, config, binding, metrics, identity, lanes, ticker, lagEvery, onClose,
                new ClusterAttachments(AttachPolicy.DEFAULT, metrics, ticker, InstantSource.system()));
    }

    static DualClusterConsumer start(Subscription subscription, MessageListener listener, PlatformConfig config,
                                     MessagingBinding binding, SdkMetrics metrics, ProxyIdentity identity,
                                     Optional<LaneMembership> lanes, Ticker ticker, Duration lagEvery,
                                     java.util.function.Consumer<AutoCloseable> onClose, ClusterAttachments attachments)
            throws MessagingException {
        DualClusterConsumer consumer = new DualClusterConsumer(subscription, listener,
                new ConsumerContext(binding, metrics, ticker, attachments), identity, lanes, lagEvery, onClose);
        ConsumptionPlan plan = consumer.plan(config);
        synchronized (consumer) {
            try {
                consumer.startPath(plan);
            } catch (MessagingException | RuntimeException e) {
                consumer.modeGauges.forEach(metrics::remove);
                throw e;
            }
        }
        return consumer;
    }

    private ConsumptionPlan plan(PlatformConfig config) throws MessagingException {
        return ConsumptionPlan.of(subscription, config, identity, lanes);
    }

    /** Starts the plan's path; the caller has stopped (or will stop) the other. */
    private void startPath(ConsumptionPlan plan) throws MessagingException {
        if (plan.mode() == ConsumptionMode.PROXY) {
            try {
                proxy = ProxyConsumer.start(plan.proxy(), lanes.map(LaneMembership::local).orElse(listener), metrics, ticker,
                        gate.paused());
            } catch (UncheckedIOException e) {
                throw new InvalidConfigurationException(e.getMessage(), e.getCause());
            }
        } else {
            direct = DirectConsumption.start(subscription, id, listener, binding, metrics, ticker, plan.direct(), lagEvery,
                    attachments, gate);
        }
        mode = plan.mode();
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
        ConsumptionPlan plan;
        try {
            plan = plan(next);
        } catch (MessagingException e) {
            throw new IllegalStateException("a change that conflicts with this consumer was applied: " + e.getMessage(), e);
        }
        if (plan.mode() == ConsumptionMode.DIRECT && direct != null) {
            direct.apply(plan.direct(), next.producer().sendTimeout().plus(DRAIN_MARGIN));
        } else if (plan.mode() == ConsumptionMode.PROXY && proxy != null && proxy.spec().equals(plan.proxy())) {
            return;
        } else {
            switchPath(plan);
        }
    }

    /** New path first, then the old one stops: the group is never without a consumer here. */
    private void switchPath(ConsumptionPlan plan) {
        DirectConsumption oldDirect = direct;
        ProxyConsumer oldProxy = proxy;
        ConsumptionMode from = oldProxy != null ? ConsumptionMode.PROXY : ConsumptionMode.DIRECT;
        long start = ticker.read();
        try {
            direct = null;
            proxy = null;
            startPath(plan);
        } catch (MessagingException | RuntimeException e) {
            direct = oldDirect;
            proxy = oldProxy;
            mode = from;
            log.error("could not start {} consumption of {} after a configuration change; {} consumption goes on", plan.mode(),
                    subscription, from, e);
            return;
        }
        long started = ticker.read();
        if (oldDirect != null) {
            oldDirect.close();
        }
        if (oldProxy != null) {
            oldProxy.close();
        }
        log.info("{} switched from {} to {} consumption: new path started in {} ms, old one stopped in {} ms", subscription,
                from, plan.mode(), (started - start) / 1_000_000, (ticker.read() - started) / 1_000_000);
    }

    /** The member tags of the group's live members (DIRECT mode); empty in PROXY mode or when no cluster can tell now. */
    public Optional<List<String>> memberTags() {
        DirectConsumption current;
        synchronized (this) {
            current = direct;
        }
        return current == null ? Optional.empty() : current.memberTags();
    }

    @Override
    public Subscription subscription() {
        return subscription;
    }

    @Override
    public synchronized void pause() {
        if (closed.get() || gate.paused()) {
            return;
        }
        gate.pause();
        if (direct != null) {
            direct.pauseFetching();
        }
        if (proxy != null) {
            proxy.pause();
        }
        log.info("{} paused", subscription);
    }

    @Override
    public synchronized void resume() {
        if (closed.get() || !gate.paused()) {
            return;
        }
        gate.resume();
        if (direct != null) {
            direct.resumeFetching();
        }
        if (proxy != null) {
            proxy.resume();
        }
        log.info("{} resumed", subscription);
    }

    @Override
    public boolean paused() {
        return gate.paused();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            // Held messages go to the listener rather than back to the broker as failed attempts; and the binding's
            // close waits for its listener threads, which would otherwise wait here for ever.
            gate.openForClose();
            synchronized (this) {
                if (direct != null) {
                    direct.close();
                }
                if (proxy != null) {
                    proxy.close();
                }
            }
            modeGauges.forEach(metrics::remove);
            onClose.accept(this);
        }
    }

    @Override
    public String toString() {
        return "DualClusterConsumer[" + subscription + "]";
    }
}
