package io.lanemq.core.internal.lane.forward;

import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.Status;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.lanemq.grpc.server.BearerTokenInterceptor;
import io.lanemq.grpc.server.CallRefusals;
import io.lanemq.grpc.server.GrpcServerTransport;
import io.lanemq.grpc.server.MalformedMessageGuard;
import io.lanemq.grpc.server.ServerTls;
import io.lanemq.support.LogThrottle;
import io.lanemq.support.NamedThreads;
import io.lanemq.support.Ticker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@code LaneForward} for this SDK instance: other instances of a consumer group send it the
 * messages of the lane it serves, and it answers what its {@link LaneForwardHandler} returned. TLS with
 * the configured certificate and key, and every call must carry the deployment's token; a connection
 * that is not TLS, a garbage byte stream or a wrong token is refused, logged and counted
 * ({@link LaneForwardMetrics#REJECTED}), and the server keeps serving. The handler runs on
 * {@link ForwardServerOptions#threads()} threads of its own.
 *
 * <pre>{@code
 * try (LaneForwardServer server = LaneForwardServer.start(settings, (group, topic, message) -> listener.consume(message), registry)) {
 *     advertise(server.address());
 * }
 * }</pre>
 *
 * <p>Thread-safe. {@link #close()} stops taking calls, lets the messages in hand finish for up to
 * {@link ForwardServerOptions#shutdownGrace()}, then stops.
 */
public final class LaneForwardServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LaneForwardServer.class);

    private final ForwardServerOptions settings;
    private final Server server;
    private final ThreadPoolExecutor listeners;
    private final GrpcServerTransport transport;
    private final InetSocketAddress address;

    private LaneForwardServer(ForwardServerOptions settings, Server server, ThreadPoolExecutor listeners,
                              GrpcServerTransport transport) {
        this.settings = settings;
        this.server = server;
        this.listeners = listeners;
        this.transport = transport;
        this.address = (InetSocketAddress) server.getListenSockets().get(0);
    }

    /**
     * Binds {@code settings.host():settings.port()} and starts serving.
     *
     * @throws IOException when the certificate or key cannot be read or the address cannot be bound
     */
    public static LaneForwardServer start(ForwardServerOptions settings, LaneForwardHandler handler, MeterRegistry registry)
            throws IOException {
        return start(settings, handler, registry, Ticker.system(), "");
    }

    /**
     * As above, throttling the refusals' log lines on {@code ticker}, with listener threads named after {@code owner}
     * (the application whose client serves; empty for none).
     */
    public static LaneForwardServer start(ForwardServerOptions settings, LaneForwardHandler handler, MeterRegistry registry,
                                          Ticker ticker, String owner) throws IOException {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(handler, "handler");
        LaneForwardMetrics metrics = new LaneForwardMetrics(Objects.requireNonNull(registry, "registry"));
        ServerCredentials credentials = ServerTls.pem(settings.certificateChain(), settings.privateKey()).credentials();
        ThreadPoolExecutor listeners = listenerExecutor(settings, owner);
        LogThrottle refusals = LogThrottle.every(Duration.ofMinutes(1), ticker);
        InetSocketAddress bind = new InetSocketAddress(settings.host(), settings.port());
        FailedConnections failedConnections = new FailedConnections(metrics, refusals);
        Counter overCap = metrics.rejected(LaneForwardMetrics.REASON_CONNECTION_CAP);
        CallRefusals callRefusals = new CallRefusals("lane forward server " + bind, refusals,
                code -> metrics.rejected(reason(code)).increment());
        // Two event loops: TLS and framing only, the listeners run on threads of their own.
        GrpcServerTransport transport = GrpcServerTransport.create(NamedThreads.name("lanemq-lane-forward", owner), 2,
                settings.limits(), "lane forward server " + bind, overCap::increment, refusals);
        try {
            Server server = transport.applyTo(NettyServerBuilder.forAddress(bind, credentials), settings.maxMessageBytes())
                    .directExecutor()
                    // The last interceptor runs first: the token is checked before the request is parsed.
                    .addService(ServerInterceptors.intercept(
                            ServerInterceptors.useInputStreamMessages(new LaneForwardService(handler, listeners, metrics).bindService()),
                            new MalformedMessageGuard("ForwardRequest", settings.maxMessageBytes(), callRefusals),
                            BearerTokenInterceptor.single(settings.token(), callRefusals)))
                    .addTransportFilter(failedConnections)
                    .build()
                    .start();
            LaneForwardServer started = new LaneForwardServer(settings, server, listeners, transport);
            failedConnections.boundTo(started.address);
            log.info("lane forward server serving on {} (TLS, {} listener threads)", started.address, settings.threads());
            return started;
        } catch (IOException | RuntimeException e) {
            listeners.shutdownNow();
            transport.close();
            throw new IOException("cannot serve lane forwarding on " + bind + ": " + e.getMessage(), e);
        }
    }

    /** The rejected meter's reason for a call the shared guards refused. */
    private static String reason(Status.Code code) {
        return switch (code) {
            case UNAUTHENTICATED -> LaneForwardMetrics.REASON_UNAUTHENTICATED;
            case RESOURCE_EXHAUSTED -> LaneForwardMetrics.REASON_TOO_LARGE;
            default -> LaneForwardMetrics.REASON_MALFORMED;
        };
    }

    private static ThreadPoolExecutor listenerExecutor(ForwardServerOptions settings, String owner) {
        BlockingQueue<Runnable> waiting = settings.queueCapacity() == 0
                ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(settings.queueCapacity());
        ThreadFactory threads = NamedThreads.numbered(NamedThreads.name("lanemq-lane-forward-listener", owner));
        // Core threads are made on demand and never time out: a rejection then means all are busy.
        return new ThreadPoolExecutor(settings.threads(), settings.threads(), 0, TimeUnit.MILLISECONDS, waiting, threads,
                new ThreadPoolExecutor.AbortPolicy());
    }

    /** The bound address (the real port when port 0 was configured). */
    public InetSocketAddress address() {
        return address;
    }

    /**
     * Stops accepting calls, waits up to {@link ForwardServerOptions#shutdownGrace()} for the listeners
     * to finish what they hold and for their replies to go out, then closes every connection. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (server.isShutdown()) {
            return;
        }
        server.shutdown();
        listeners.shutdown();
        // On System.nanoTime, not an injected ticker: this deadline bounds the JDK's real blocking waits below.
        long deadline = System.nanoTime() + settings.shutdownGrace().toNanos();
        try {
            if (!listeners.awaitTermination(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                log.warn("lane forward server {}: listeners still busy after {}; their callers will see the call fail",
                        address, settings.shutdownGrace());
            }
            server.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            server.shutdownNow();
            listeners.shutdownNow();
            transport.close();
        }
        log.info("lane forward server {} stopped", address);
    }
}
