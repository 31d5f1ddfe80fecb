package io.lanemq.core.internal.lane;

import io.lanemq.api.LaneEndpointException;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.Lane;
import io.lanemq.api.LaneOptions;
import io.lanemq.api.MessageListener;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.Subscription;
import io.lanemq.core.internal.consume.listener.ListenerAdapter;
import io.lanemq.grpc.server.GrpcServerLimits;
import io.lanemq.core.internal.lane.forward.ForwardClientOptions;
import io.lanemq.core.internal.lane.forward.ForwardServerOptions;
import io.lanemq.core.internal.lane.forward.LaneForwardClient;
import io.lanemq.core.internal.lane.forward.LaneForwardServer;
import io.lanemq.core.internal.lane.forward.UnknownGroupException;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.NamedThreads;
import io.lanemq.support.Ticker;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client's part in lanes: the endpoint where the other members of its consumer groups forward it
 * the messages of its lane, the client that forwards to theirs, and, per subscription, the directory of
 * the group's lanes, read again from the brokers' member lists every {@link LaneOptions#membershipRefresh()}.
 *
 * <p>A forwarded message runs through the application's own listener, not through lane routing again:
 * the forwarder already chose this lane, and routing it on would let two views that disagree for a
 * moment pass a message back and forth.
 */
public final class LaneRuntime implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LaneRuntime.class);

    private final LaneOptions options;
    private final SdkMetrics metrics;
    private final Ticker ticker;
    private final LaneForwardClient client;
    private final LaneForwardServer server;
    private final LaneMember self;
    private final ScheduledExecutorService refresher;
    /** The application's listeners by group and logic topic, for the messages forwarded here. */
    private final Map<GroupTopic, MessageListener> listeners = new ConcurrentHashMap<>();
    private final Map<GroupTopic, LaneSubscription> subscriptions = new ConcurrentHashMap<>();

    private record GroupTopic(String group, String logicTopic) {
    }

    private LaneRuntime(LaneOptions options, int maxBodyBytes, SdkMetrics metrics, Ticker ticker, String owner)
            throws InvalidConfigurationException {
        this.options = options;
        this.metrics = metrics;
        this.ticker = ticker;
        this.client = new LaneForwardClient(ForwardClientOptions.builder(options.trustedCertificates(), options.token())
                .callDeadline(options.forwardTimeout()).maxMessageBytes(GrpcServerLimits.maxFrameBytes(maxBodyBytes)).build(),
                metrics.registry(), ticker);
        try {
            this.server = LaneForwardServer.start(ForwardServerOptions.builder(options.certificateChain(), options.privateKey(),
                            options.token()).host(options.listenHost()).port(options.listenPort()).threads(options.serverThreads())
                    .maxMessageBytes(GrpcServerLimits.maxFrameBytes(maxBodyBytes))
                    .build(), this::consumeForwarded, metrics.registry(), ticker, owner);
        } catch (IOException | RuntimeException e) {
            client.close();
            throw new LaneEndpointException("cannot serve lane forwarding on " + options.listenHost() + ":"
                    + options.listenPort() + ": " + e.getMessage(), e);
        }
        this.self = new LaneMember(options.lane(), options.advertisedHost(), server.address().getPort());
        this.refresher = Executors.newSingleThreadScheduledExecutor(NamedThreads.single(NamedThreads.name("lanemq-lane-members", owner)));
    }

    /**
     * @param maxBodyBytes the platform's {@code producer.maxBodyBytes}: the forwarding endpoint accepts any message
     *                     a producer may send (the body plus framing room), and refuses larger ones
     * @param ticker the client's clock: member suspicion, forwarding latency, idle channels
     * @param owner  the application whose client this is, named in the threads' names
     * @throws LaneEndpointException the forwarding endpoint cannot start (port taken, unreadable TLS files)
     */
    public static LaneRuntime start(LaneOptions options, int maxBodyBytes, SdkMetrics metrics, Ticker ticker, String owner)
            throws InvalidConfigurationException {
        LaneRuntime runtime = new LaneRuntime(options, maxBodyBytes, metrics, ticker, owner);
        log.info("lane member {} serving forwarded messages on {}", runtime.self, runtime.server.address());
        return runtime;
    }

    /** What this instance's consumers join their groups with, so the other members learn its lane and endpoint. */
    public String memberTag() {
        return self.tag();
    }

    /** This instance's lane; empty: the base. */
    public Optional<Lane> lane() {
        return options.lane();
    }

    /** Where the forwarding endpoint listens. */
    public InetSocketAddress address() {
        return server.address();
    }

    /**
     * Takes a subscription into lanes: its listener receives the messages of this instance's lane, from the
     * brokers and forwarded by other members; the returned subscription's {@link LaneSubscription#listener()}
     * is what the consumer must run.
     */
    public LaneSubscription register(Subscription subscription, MessageListener listener) {
        GroupTopic key = new GroupTopic(subscription.consumerGroup(), subscription.logicTopic());
        if (listeners.putIfAbsent(key, listener) != null) {
            throw new IllegalStateException("this client already consumes " + subscription.logicTopic() + " as group '"
                    + subscription.consumerGroup() + "' in lanes; one subscription per group and topic");
        }
        // Long enough for the brokers' list to drop a member that died, which a later refresh then shows.
        long suspectNanos = options.membershipRefresh().multipliedBy(3).toNanos();
        LaneDirectory directory = new LaneDirectory(self, suspectNanos, ticker);
        LaneRoutingListener routing = new LaneRoutingListener(subscription.consumerGroup(), listener, directory,
                this::forward, metrics, options.membershipRefresh().multipliedBy(5));
        LaneSubscription laneSubscription = new LaneSubscription(key, listener, routing, directory);
        subscriptions.put(key, laneSubscription);
        return laneSubscription;
    }

    /** The lanes with live members (empty: the base) as this instance's subscription of the group and topic sees them now. */
    public Optional<Set<Optional<Lane>>> lanesWithMembers(String group, String logicTopic) {
        return Optional.ofNullable(subscriptions.get(new GroupTopic(group, logicTopic))).map(LaneSubscription::lanesWithMembers);
    }

    private ConsumeResult forward(LaneMember target, String group, ReceivedMessage message) throws Exception {
        return client.forward(target.address(), group, message);
    }

    private ConsumeResult consumeForwarded(String group, String logicTopic, ReceivedMessage message)
            throws UnknownGroupException {
        MessageListener listener = listeners.get(new GroupTopic(group, logicTopic));
        if (listener == null) {
            throw new UnknownGroupException(group, logicTopic);
        }
        metrics.laneRouted(group, SdkMetrics.LaneOutcome.RECEIVED);
        return new ListenerAdapter(logicTopic, group, message.cluster(), listener, metrics, ticker).consume(message);
    }

    @Override
    public void close() {
        refresher.shutdownNow();
        server.close();
        client.close();
    }

    /** One subscription's lane routing; closing it stops the refresh and the forwarding to its listener. */
    public final class LaneSubscription implements AutoCloseable {
        private final LaneRoutingListener routing;
        private final LaneDirectory directory;
        private final GroupTopic key;
        /** The application's listener, which forwarded messages of this group and topic go to. */
        private final MessageListener applicationListener;
        private ScheduledFuture<?> refresh;

        private LaneSubscription(GroupTopic key, MessageListener listener, LaneRoutingListener routing, LaneDirectory directory) {
            this.key = key;
            this.applicationListener = listener;
            this.routing = routing;
            this.directory = directory;
        }

        /** The listener the subscription's consumer runs: the application's for this lane, forwarding for the others. */
        public MessageListener listener() {
            return routing;
        }

        /** Reads the group's members from {@code memberTags} now and every refresh interval; an unknown answer keeps the last view. */
        public synchronized void watch(Supplier<Optional<List<String>>> memberTags) {
            long millis = options.membershipRefresh().toMillis();
            refresh = refresher.scheduleWithFixedDelay(() -> {
                try {
                    memberTags.get().ifPresent(directory::update);
                } catch (RuntimeException e) {
                    log.warn("reading the members of a lane group failed; keeping the last view", e);
                }
            }, 0, millis, TimeUnit.MILLISECONDS);
        }

        /** The lanes of the group with live members now (empty: the base), for tests and diagnostics. */
        public Set<Optional<Lane>> lanesWithMembers() {
            return directory.view().keySet();
        }

        @Override
        public synchronized void close() {
            if (refresh != null) {
                refresh.cancel(false);
            }
            listeners.remove(key, applicationListener);
            subscriptions.remove(key, this);
        }
    }
}
