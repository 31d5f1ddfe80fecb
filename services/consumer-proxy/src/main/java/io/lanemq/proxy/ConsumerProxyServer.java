package io.lanemq.proxy;

import io.lanemq.support.Clocks;
import io.lanemq.support.NamedThreads;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.InsecureServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.lanemq.grpc.server.BearerTokenInterceptor;
import io.lanemq.grpc.server.CallRefusals;
import io.lanemq.grpc.server.GrpcServerLimits;
import io.lanemq.grpc.server.GrpcServerTransport;
import io.lanemq.grpc.server.MalformedMessageGuard;
import io.lanemq.grpc.server.ServerTls;
import io.lanemq.support.LogThrottle;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.config.ConfigListener;
import io.lanemq.config.ConfigSource;
import io.lanemq.config.ConfigSources;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigRef;
import io.lanemq.config.ConfigDocument;
import io.lanemq.api.ClientHealth;
import io.lanemq.core.client.ConfigStaleness;
import io.lanemq.core.metrics.SdkMetrics;
import java.time.Instant;
import java.util.Optional;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer proxy: reads and watches the platform configuration, serves the
 * {@code ConsumerProxy} gRPC service (TLS, per-application tokens) on the configured address only,
 * and records its meters in a Micrometer registry (served over HTTP by {@code ConsumerProxyApplication}).
 *
 * <p>{@link #close()} is the graceful shutdown: stop fetching, tell every stream DRAINING, wait up
 * to the drain timeout for outstanding deliveries to be acked, commit the offsets that are safe,
 * end the streams with UNAVAILABLE, then stop the server and the RocketMQ clients.
 *
 * <pre>{@code
 * try (ConsumerProxyServer proxy = ConsumerProxyServer.start(config)) {
 *     proxy.awaitTermination();
 * }
 * }</pre>
 */
public final class ConsumerProxyServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ConsumerProxyServer.class);

    private final ProxyServerOptions config;
    private final ConfigSource source;
    private final MeterRegistry registry;
    /** Closed with the proxy only when the proxy made it; a given registry belongs to the caller. */
    private final boolean ownsRegistry;
    private final ProxyMetrics metrics;
    private final ScheduledExecutorService ticker;
    private final ScheduledExecutorService idleCheck;
    private final GroupRegistry groups;
    private final ConsumerProxyService service;
    private final GrpcServerTransport transport;
    private final Server server;
    private volatile boolean serving = true;
    private boolean closed;
    private final PlatformConfigRef platform;
    /** The clocks of the proxy and every group it runs. */
    private final Clocks clocks;
    /** When the configuration in force took effect (start or last change), for the health line. */
    private volatile Instant configApplied;

    private ConsumerProxyServer(ProxyServerOptions config, ConfigSource source, PlatformConfig initial, MeterRegistry registry,
                                boolean ownsRegistry, Clocks clocks) throws IOException {
        this.config = config;
        this.clocks = clocks;
        this.configApplied = clocks.wall().instant();
        this.source = source;
        this.registry = registry;
        this.ownsRegistry = ownsRegistry;
        this.metrics = new ProxyMetrics(registry);
        PlatformConfigRef platform = new PlatformConfigRef(initial);
        this.platform = platform;
        // The SDK's meter names, so one dashboard shows clients and services on a local snapshot alike.
        SdkMetrics configMetrics = new SdkMetrics(registry, "lanemq-consumer-proxy");
        configMetrics.configStaleGauge(() -> ConfigStaleness.of(platform.current()).isPresent() ? 1 : 0);
        configMetrics.configRevisionGauge(() -> platform.current().document().map(ConfigDocument::revision).orElse(0L));
        this.ticker = Executors.newSingleThreadScheduledExecutor(NamedThreads.single("lanemq-proxy-ticker"));
        this.groups = new GroupRegistry(platform, config, ticker, metrics, clocks);
        this.idleCheck = Executors.newSingleThreadScheduledExecutor(NamedThreads.single("lanemq-proxy-idle-groups"));
        idleCheck.scheduleWithFixedDelay(groups::stopIdleGroups, 1, 1, TimeUnit.SECONDS);
        this.service = new ConsumerProxyService(groups, config, metrics);
        // One line a minute per kind of refusal (connection cap, token, malformed frame), each with its count.
        LogThrottle refusals = LogThrottle.perMinute();
        this.transport = GrpcServerTransport.create("lanemq-proxy", Runtime.getRuntime().availableProcessors(),
                config.serverLimits(), "consumer proxy " + config.proxyId(),
                metrics.refusedConnections("connection_cap")::increment, refusals);
        CallRefusals callRefusals = new CallRefusals("consumer proxy " + config.proxyId(), refusals,
                code -> metrics.refusedCalls(code.name()).increment());
        try {
            // Clients send small frames (subscriptions, acks, credits); the bound still follows the one message size
            // limit, so nothing a producer may send is refused on any hop.
            int maxFrameBytes = GrpcServerLimits.maxFrameBytes(initial.producer().maxBodyBytes());
            this.server = transport.applyTo(NettyServerBuilder.forAddress(config.grpcAddress(), credentials(config)), maxFrameBytes)
                    .addService(ServerInterceptors.intercept(ServerInterceptors.useInputStreamMessages(service.bindService()),
                            new MalformedMessageGuard("ConsumeRequest", maxFrameBytes, callRefusals),
                            BearerTokenInterceptor.perApplication(config.tokens(), callRefusals)))
                    .build()
                    .start();
        } catch (IOException | RuntimeException e) {
            transport.close();
            ticker.shutdownNow();
            idleCheck.shutdownNow();
            throw e;
        }
        // Kept before the watch starts, so a change it delivers at once is never overwritten by this older one.
        source.applied(initial);
        source.watch(new ConfigListener() {
            @Override
            public void onChange(PlatformConfig next) {
                platform.swap(next);
                configApplied = clocks.wall().instant();
                List<GroupRuntime> changed = groups.detachChanged(next);
                log.info("platform configuration from {}{} changed; {} running groups restart with it", source.describe(),
                        next.document().map(d -> " (revision " + d.revision() + ")").orElse(""), changed.size());
                changed.forEach(ConsumerProxyServer.this::restart);
                source.applied(next);
            }

            @Override
            public void onRejected(InvalidConfigurationException reason) {
                log.warn("{}; the last good configuration stays in force", reason.getMessage());
            }
        });
    }

    /**
     * Per running group and cluster not fetched yet (down or silent when the group started; attached in the
     * background): why, since when. Empty when every group fetches every cluster.
     */
    public List<String> detachedClusters() {
        return groups.detached();
    }

    /** Reads the platform configuration, binds the gRPC address and starts serving; meters go to a registry of its own. */
    public static ConsumerProxyServer start(ProxyServerOptions config) throws InvalidConfigurationException, IOException {
        return start(config, new SimpleMeterRegistry(), true, Clocks.system());
    }

    /**
     * As {@link #start(ProxyServerOptions)}, with the proxy's meters in {@code registry} (a service's Prometheus registry,
     * say). The registry stays the caller's: {@link #close()} leaves it open.
     */
    public static ConsumerProxyServer start(ProxyServerOptions config, MeterRegistry registry)
            throws InvalidConfigurationException, IOException {
        return start(config, Objects.requireNonNull(registry, "registry"), false, Clocks.system());
    }

    /** As above, on the given clocks: what a test injects to advance the proxy's time instead of waiting for it. */
    static ConsumerProxyServer start(ProxyServerOptions config, MeterRegistry registry, Clocks clocks)
            throws InvalidConfigurationException, IOException {
        return start(config, Objects.requireNonNull(registry, "registry"), false, Objects.requireNonNull(clocks, "clocks"));
    }

    private static ConsumerProxyServer start(ProxyServerOptions config, MeterRegistry registry, boolean ownsRegistry,
                                             Clocks clocks) throws InvalidConfigurationException, IOException {
        ConfigSource source = ConfigSources.open(config.configLocation());
        try {
            ConsumerProxyServer proxy = new ConsumerProxyServer(config, source, source.load(), registry, ownsRegistry, clocks);
            log.info("consumer proxy {} serving on {} ({}), platform configuration from {}", config.proxyId(),
                    proxy.grpcAddress(), config.keyStore().isPresent() ? "TLS" : "PLAINTEXT", source.describe());
            return proxy;
        } catch (IOException | InvalidConfigurationException | RuntimeException e) {
            source.close();
            throw e;
        }
    }

    private static ServerCredentials credentials(ProxyServerOptions config) throws IOException {
        if (config.keyStore().isEmpty()) {
            return InsecureServerCredentials.create();
        }
        return ServerTls.pkcs12(config.keyStore().get(), config.keyStorePassword()).credentials();
    }

    /**
     * Stops a group whose configuration changed as a shutdown would (stop fetching, DRAINING, wait for
     * acks, move the unacked to the retry topic, commit), then ends its streams with UNAVAILABLE: their
     * clients reconnect and join the group built from the new configuration.
     */
    private void restart(GroupRuntime group) {
        Predicate<StreamSession> ofGroup = stream -> stream.group() == group;
        try {
            group.stopFetching();
            service.drain(ofGroup);
            group.awaitAcksAndCommit(config.drainTimeout().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            service.end(ofGroup, Status.UNAVAILABLE.withDescription("the configuration of " + group.key()
                    + " changed; reconnect"));
            group.close();
        }
    }

    /** The bound gRPC address (the real port when port 0 was configured). */
    public InetSocketAddress grpcAddress() {
        return (InetSocketAddress) server.getListenSockets().get(0);
    }

    /**
     * The configuration source's state, as a client reports it: whether the proxy runs on its local snapshot (etcd
     * unreachable at its start) and since when. No rejection is kept: the proxy logs a rejected change.
     */
    public ClientHealth.Configuration configuration() {
        return new ClientHealth.Configuration(source.describe(), configApplied, Optional.empty(), source.isConnected(),
                ConfigStaleness.of(platform.current()));
    }

    /** The registry holding the proxy's meters. */
    public MeterRegistry meters() {
        return registry;
    }

    /** True until {@link #close()} begins: from then on the proxy drains and takes no new subscriptions. */
    public boolean serving() {
        return serving;
    }

    public void awaitTermination() throws InterruptedException {
        server.awaitTermination();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        serving = false;
        idleCheck.shutdown();
        List<GroupRuntime> running = groups.closeForNewGroups();
        try {
            for (GroupRuntime group : running) {
                group.stopFetching();
            }
            service.drainAll();
            // On System.nanoTime, not the injected ticker: this deadline bounds the real blocking waits below.
            long deadline = System.nanoTime() + config.drainTimeout().toNanos();
            for (GroupRuntime group : running) {
                long left = Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
                int unacked = group.awaitAcksAndCommit(left);
                if (unacked > 0) {
                    log.warn("{}: {} deliveries still unacked after the drain timeout; they will be delivered again",
                            group.key(), unacked);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        service.endAll(Status.UNAVAILABLE.withDescription("proxy " + config.proxyId() + " stopped; reconnect"));
        server.shutdown();
        try {
            if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
                server.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.shutdownNow();
        }
        transport.close();
        running.forEach(GroupRuntime::close);
        ticker.shutdownNow();
        idleCheck.shutdownNow();
        source.close();
        if (ownsRegistry) {
            registry.close();
        }
        log.info("consumer proxy {} stopped", config.proxyId());
    }
}
