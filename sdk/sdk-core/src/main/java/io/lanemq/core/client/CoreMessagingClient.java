package io.lanemq.core.client;

import io.lanemq.api.BatchMessageListener;
import io.lanemq.api.Batching;
import io.lanemq.api.ClientHealth;
import io.lanemq.api.ClientOptions;
import io.lanemq.api.Consumer;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.Lane;
import io.lanemq.api.LaneOptions;
import io.lanemq.api.MessageListener;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.SeekResult;
import io.lanemq.api.Subscription;
import io.lanemq.api.spi.MessagingBinding;
import io.lanemq.core.internal.consume.GroupSeek;
import io.lanemq.config.ConfigSnapshotStore;
import io.lanemq.config.ClientIdentity;
import io.lanemq.config.ConfigSource;
import io.lanemq.config.ConfigSources;
import io.lanemq.config.ConfigSubscriber;
import io.lanemq.config.PlatformConfigRef;
import io.lanemq.core.internal.consume.DualClusterConsumer;
import io.lanemq.core.internal.consume.LaneMembership;
import io.lanemq.support.attach.AttachPolicy;
import io.lanemq.core.internal.consume.attach.ClusterAttachments;
import io.lanemq.core.internal.consume.dedup.DeduplicatingListener;
import io.lanemq.core.internal.consume.listener.GatheringListener;
import io.lanemq.core.internal.consume.listener.ObservedListener;
import io.lanemq.core.internal.consume.proxy.ProxyIdentity;
import io.lanemq.core.internal.lane.LaneRuntime;
import io.lanemq.core.internal.produce.ClusterProducers;
import io.lanemq.core.internal.produce.ContextStamp;
import io.lanemq.core.internal.produce.RoutingProducer;
import io.lanemq.core.internal.produce.TopicRateLimits;
import io.lanemq.core.internal.routing.FailoverClusterChooser;
import io.lanemq.core.internal.routing.NameServerProbe;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.NamedThreads;
import io.lanemq.support.ParallelClose;
import io.lanemq.core.internal.ClientContext;
import io.lanemq.support.Clocks;
import io.lanemq.support.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.observation.ObservationRegistry;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The SDK core's {@link MessagingClient}: owns the configuration snapshot, the binding and every
 * producer and consumer it created, and closes them all on {@link #close()}.
 */
public final class CoreMessagingClient implements MessagingClient {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(CoreMessagingClient.class);
    private final ClientOptions options;
    private final ConfigSource source;
    private final PlatformConfigRef config;
    private final MessagingBinding binding;
    /** The routing's failover; its judgement of each cluster is the clusters' part of {@link #health()}. */
    private final FailoverClusterChooser chooser;
    private final SdkMetrics metrics;
    /** The clusters this client's consumers could not attach to yet: the consumers' part of {@link #health()}. */
    private final ClusterAttachments attachments;
    /** This instance's part in lanes; null when its options have none. */
    private final LaneRuntime lanes;
    private final Set<AutoCloseable> open = ConcurrentHashMap.newKeySet();
    private final ConfigReloader reloader;
    /** Shared by every producer of this client: a topic's limit holds for the application, not per producer. */
    private final TopicRateLimits rateLimits = new TopicRateLimits();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The one monotonic clock of this client and everything it creates: routing, sends, consumers, lanes. */
    private final Ticker ticker;
    /** The wall clock a delayed message's {@code deliverAt} is checked against. */
    private final InstantSource wallClock;
    /** Where sends and listener runs are observed (traced); {@link ObservationRegistry#NOOP} unless the application gave one. */
    private final ObservationRegistry observations;
    /** The above, as every producer of this client takes them. */
    private final ClientContext context;

    private CoreMessagingClient(ClientOptions options, ConfigSource source, ClientContext context, MessagingBinding binding,
                                FailoverClusterChooser chooser, LaneRuntime lanes) {
        this.context = context;
        this.observations = context.observations();
        this.options = options;
        this.source = source;
        this.config = context.config();
        this.binding = binding;
        this.chooser = chooser;
        this.metrics = context.metrics();
        this.lanes = lanes;
        this.ticker = context.clocks().ticker();
        this.wallClock = context.clocks().wall();
        this.attachments = new ClusterAttachments(AttachPolicy.DEFAULT.requiringClusterWithin(options.requireClusterWithin()),
                metrics, ticker, wallClock);
        this.reloader = new ConfigReloader(source.describe(), source::isConnected, source::applied, config, this::subscribers, metrics,
                wallClock);
    }

    private List<ConfigSubscriber> subscribers() {
        List<ConfigSubscriber> subscribers = new ArrayList<>();
        for (AutoCloseable component : open) {
            if (component instanceof ConfigSubscriber subscriber) {
                subscribers.add(subscriber);
            }
        }
        return subscribers;
    }

    /** Starts a client that reports to Micrometer's global registry. */
    public static CoreMessagingClient start(ClientOptions options) throws MessagingException {
        return start(options, Metrics.globalRegistry);
    }

    /** Starts a client reporting to {@code registry}; reads and validates the configuration first. */
    public static CoreMessagingClient start(ClientOptions options, MeterRegistry registry) throws MessagingException {
        return start(options, registry, ObservationRegistry.NOOP);
    }

    /**
     * Starts a client reporting to {@code registry} whose sends and listener runs are also observed on
     * {@code observations} (see {@link io.lanemq.core.observation.LaneMqObservations}): with a tracing bridge there, a
     * consumer's span continues its producer's trace through the message's properties.
     */
    public static CoreMessagingClient start(ClientOptions options, MeterRegistry registry, ObservationRegistry observations)
            throws MessagingException {
        return start(options, registry, observations, Ticker.system(), InstantSource.system(), Optional.empty());
    }

    /**
     * As above, on {@code binding} instead of the one the class path provides, whatever the configuration's
     * {@code binding} key says: what runs an application's tests on the in-memory binding (the testkit's
     * {@code MemoryBinding}) through the same code as production.
     */
    public static CoreMessagingClient start(ClientOptions options, MeterRegistry registry, ObservationRegistry observations,
                                            MessagingBinding binding) throws MessagingException {
        return start(options, registry, observations, Ticker.system(), InstantSource.system(),
                Optional.of(Objects.requireNonNull(binding, "binding")));
    }

    /**
     * As above, on the given clocks (what tests inject to advance time instead of sleeping) and, when {@code binding} is
     * given, on that binding instead of the one the class path provides (the in-memory binding of the core's tests).
     */
    static CoreMessagingClient start(ClientOptions options, MeterRegistry registry, ObservationRegistry observations, Ticker ticker,
                                     InstantSource wallClock, Optional<MessagingBinding> binding) throws MessagingException {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(ticker, "ticker");
        Objects.requireNonNull(wallClock, "wallClock");
        Objects.requireNonNull(observations, "observations");
        ClientIdentity identity = options.instanceId().map(id -> new ClientIdentity(options.applicationName(), id))
                .orElseGet(() -> ClientIdentity.ofDeployment(options.applicationName()));
        ConfigSource source = ConfigSources.open(options.configLocation(), options.environment(), !options.configSnapshots()
                ? Optional.empty() : options.configSnapshotDirectory().or(ConfigSnapshotStore::deploymentDirectory),
                Optional.of(identity));
        LaneRuntime lanes = null;
        try {
            PlatformConfigRef config = new PlatformConfigRef(source.load());
            if (options.requireClusterWithin().isPresent()) {
                NameServerProbe.requireAnyCluster(config.current(), options.requireClusterWithin().get(), ticker);
            }
            MessagingBinding bound = ApplicationTunedBinding.of(binding.isPresent() ? binding.get()
                    : BindingLoader.load(config.current().binding(), CoreMessagingClient.class.getClassLoader()), options.properties());
            SdkMetrics metrics = new SdkMetrics(registry, options.applicationName(),
                    options.environment().orElseGet(ConfigSources::deploymentEnvironment));
            if (options.lanes().isPresent()) {
                lanes = LaneRuntime.start(options.lanes().get(), config.current().producer().maxBodyBytes(), metrics, ticker,
                        options.applicationName());
            }
            CoreMessagingClient client = new CoreMessagingClient(options, source,
                    new ClientContext(config, metrics, new Clocks(ticker, wallClock), observations), bound,
                    new FailoverClusterChooser(config, metrics, ticker, options.applicationName()), lanes);
            // Kept before the watch starts, so a change it delivers at once is never overwritten by this older one.
            source.applied(config.current());
            // Watch only once the client can follow changes: a change from now on is applied live.
            source.watch(client.reloader);
            return client;
        } catch (MessagingException | RuntimeException e) {
            if (lanes != null) {
                lanes.close();
            }
            source.close();
            throw e;
        }
    }

    @Override
    public Producer createProducer(ProducerOptions producerOptions) throws MessagingException {
        ensureOpen();
        String group = producerOptions.producerGroup().orElse(options.applicationName() + "-producer");
        ClusterProducers clusters = new ClusterProducers(group, producerOptions.transactionChecker(), config, binding, metrics,
                attachments, ticker);
        try {
            Map<String, String> unreachable = chooser.checkReachable(cluster -> binding.unreachable(cluster.endpoint()));
            attachments.reachability(config.current().clusters().keySet(), unreachable);
            if (!unreachable.isEmpty()) {
                log.warn("producer group {} starts with {} out of rotation until a name server of each answers: {}", group,
                        unreachable.keySet(), unreachable);
            }
            clusters.startAll();
        } catch (InvalidConfigurationException | RuntimeException e) {
            clusters.close();
            throw e;
        }
        RoutingProducer producer = new RoutingProducer(context, clusters, chooser, rateLimits,
                new ContextStamp(options.lanes().flatMap(LaneOptions::lane)), open::remove);
        open.add(producer);
        return producer;
    }

    @Override
    public Consumer subscribe(Subscription subscription, Batching batching, BatchMessageListener listener)
            throws MessagingException {
        Objects.requireNonNull(batching, "batching");
        Objects.requireNonNull(listener, "listener");
        return subscribe(subscription, new GatheringListener(listener, batching));
    }

    @Override
    public Consumer subscribe(Subscription subscription, MessageListener listener) throws MessagingException {
        ensureOpen();
        Objects.requireNonNull(listener, "listener");
        // Observed inside the deduplication: a copy it drops never reaches the application, so it makes no span.
        listener = DeduplicatingListener.wrap(subscription, config.current(),
                ObservedListener.wrap(subscription, listener, observations), metrics, ticker);
        ProxyIdentity identity = new ProxyIdentity(options.applicationName(), options.proxyToken());
        if (lanes == null) {
            DualClusterConsumer consumer = DualClusterConsumer.start(subscription, listener, config.current(), binding, metrics,
                    identity, Optional.empty(), ticker, open::remove, attachments);
            open.add(consumer);
            return consumer;
        }
        LaneRuntime.LaneSubscription laneSubscription = lanes.register(subscription, listener);
        DualClusterConsumer consumer;
        try {
            consumer = DualClusterConsumer.start(subscription, laneSubscription.listener(), config.current(), binding, metrics,
                    identity, Optional.of(new LaneMembership(lanes.memberTag(), lanes.lane(), listener)), ticker, closing -> {
                        laneSubscription.close();
                        open.remove(closing);
                    }, attachments);
        } catch (MessagingException | RuntimeException e) {
            laneSubscription.close();
            throw e;
        }
        laneSubscription.watch(consumer::memberTags);
        open.add(consumer);
        return consumer;
    }

    @Override
    public SeekResult seek(String logicTopic, String consumerGroup, Optional<Instant> to) throws MessagingException {
        Objects.requireNonNull(to, "to");
        return GroupSeek.seek(config.current(), binding, logicTopic, consumerGroup, to);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Built from the configuration reloader's record and the routing failover's state (see
     * {@link FailoverClusterChooser#health()}); times are on the client's wall clock.
     */
    @Override
    public ClientHealth health() {
        return new ClientHealth(reloader.health(), attachments.health(chooser.health()));
    }

    /**
     * Why the last configuration change was rejected (the previous configuration stays in
     * force), while no later change has applied: the client's configuration health.
     */
    public Optional<InvalidConfigurationException> lastReloadRejection() {
        return reloader.lastRejection();
    }

    /**
     * The lanes that have live members of the subscription's group, as this instance's lane routing sees
     * them now (empty: the base); empty when this client takes no part in lanes or has no such subscription.
     */
    public Optional<Set<Optional<Lane>>> lanesWithMembers(Subscription subscription) {
        return lanes == null ? Optional.empty() : lanes.lanesWithMembers(subscription.consumerGroup(), subscription.logicTopic());
    }

    /** The configuration reference; hot reload swaps snapshots through it. */
    public PlatformConfigRef config() {
        return config;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        // Producers and subscriptions are independent, and each takes seconds to close its RocketMQ clients.
        List<Exception> failures = Collections.synchronizedList(new ArrayList<>());
        ParallelClose.all(NamedThreads.name("lanemq-client-close", options.applicationName()),
                List.copyOf(open).stream().map(closeable -> (Runnable) () -> {
                    try {
                        closeable.close();
                    } catch (Exception e) {
                        failures.add(e);
                    }
                }).toList());
        RuntimeException failure = null;
        for (Exception e : failures) {
            if (failure == null) {
                failure = new IllegalStateException("closing the messaging client failed [applicationName="
                        + options.applicationName() + "]", e);
            } else {
                failure.addSuppressed(e);
            }
        }
        if (lanes != null) {
            lanes.close();
        }
        chooser.close();
        source.close();
        metrics.removeGauges();
        if (failure != null) {
            throw failure;
        }
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw new IllegalStateException("messaging client is closed [applicationName=" + options.applicationName() + "]");
        }
    }
}
