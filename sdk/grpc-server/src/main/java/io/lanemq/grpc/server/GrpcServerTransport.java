package io.lanemq.grpc.server;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.ChannelFactory;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandler;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandlerContext;
import io.grpc.netty.shaded.io.netty.channel.ChannelInboundHandlerAdapter;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.ServerChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import io.lanemq.support.LogThrottle;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Netty side of one LaneMQ gRPC server: its own event loops, the {@link GrpcServerLimits} applied to the
 * builder, and the connection cap.
 *
 * <p>Own event loops: by default grpc-java runs every server and client channel of a JVM on one shared group, so a
 * server that is also a gRPC client (of etcd, of other lane members), or shares its JVM with its clients, would have
 * connections with both ends on one thread. Epoll where the platform has it, NIO elsewhere.
 *
 * <p>The cap: gRPC has no connection limit of its own, and a {@code ServerTransportFilter} only hears of a connection
 * once TLS and HTTP/2 are up, after the costly part. So a handler sits in the listening channel's pipeline, before
 * the bootstrap hands an accepted socket to gRPC: beyond {@link GrpcServerLimits#maxConnections()} open sockets the
 * new one is closed at once, counted through {@code onRefused} and logged through a {@link LogThrottle} (one line a
 * minute with the count). Connections still in their handshake count, so a flood of silent sockets is capped too;
 * the handshake timeout frees their places.
 *
 * <pre>{@code
 * GrpcServerTransport transport = GrpcServerTransport.create("lanemq-proxy", 2, limits, "consumer proxy", refused::increment, throttle);
 * Server server = transport.applyTo(NettyServerBuilder.forAddress(address, credentials), maxFrameBytes).addService(...).build().start();
 * ...
 * server.shutdown().awaitTermination();
 * transport.close();
 * }</pre>
 *
 * <p>Thread-safe. {@link #close()} after the server terminated.
 */
public final class GrpcServerTransport implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GrpcServerTransport.class);
    /**
     * gRPC 1.53 logs each inbound message it cannot take (over the size limit, say) at WARNING with a stack trace,
     * through java.util.logging: one line per hostile message. Held here, so the filter below outlives a logger
     * java.util.logging only references weakly.
     */
    static final java.util.logging.Logger GRPC_STREAM_LOG =
            java.util.logging.Logger.getLogger("io.grpc.netty.shaded.io.grpc.netty.NettyServerStream");

    static {
        LogThrottle throttle = LogThrottle.perMinute();
        // One such line a minute, its count in the message; the refused calls' metrics count every one.
        GRPC_STREAM_LOG.setFilter(record -> {
            long count = throttle.event(String.valueOf(record.getMessage()));
            if (count > 1) {
                record.setMessage(record.getMessage() + " (" + (count - 1) + " similar suppressed)");
            }
            return count > 0;
        });
    }

    private final EventLoopGroup acceptor;
    private final EventLoopGroup workers;
    private final boolean epoll;
    private final GrpcServerLimits limits;
    private final ConnectionCap cap;

    private GrpcServerTransport(EventLoopGroup acceptor, EventLoopGroup workers, boolean epoll, GrpcServerLimits limits,
                                ConnectionCap cap) {
        this.acceptor = acceptor;
        this.workers = workers;
        this.epoll = epoll;
        this.limits = limits;
        this.cap = cap;
    }

    /**
     * @param threadPrefix names the threads ({@code <prefix>-accept-1-1}, {@code <prefix>-io-...})
     * @param server       what the refusal log line calls this server
     * @param onRefused    runs for each connection refused by the cap (a metric's increment)
     * @param refusals     the server's log throttle
     */
    public static GrpcServerTransport create(String threadPrefix, int workerThreads, GrpcServerLimits limits, String server,
                                             Runnable onRefused, LogThrottle refusals) {
        Objects.requireNonNull(limits, "limits");
        ConnectionCap cap = new ConnectionCap(limits.maxConnections(), server, Objects.requireNonNull(onRefused, "onRefused"),
                Objects.requireNonNull(refusals, "refusals"));
        DefaultThreadFactory acceptThreads = new DefaultThreadFactory(threadPrefix + "-accept", true);
        DefaultThreadFactory ioThreads = new DefaultThreadFactory(threadPrefix + "-io", true);
        if (Epoll.isAvailable()) {
            return new GrpcServerTransport(new EpollEventLoopGroup(1, acceptThreads),
                    new EpollEventLoopGroup(workerThreads, ioThreads), true, limits, cap);
        }
        return new GrpcServerTransport(new NioEventLoopGroup(1, acceptThreads), new NioEventLoopGroup(workerThreads, ioThreads),
                false, limits, cap);
    }

    /**
     * The event loops, the cap and every limit on {@code builder}. Inbound messages: the transport takes up to
     * {@link #transportLimit(int) twice} {@code maxInboundMessageBytes}, so the service can refuse one over the limit
     * itself with {@code RESOURCE_EXHAUSTED} naming the limit (gRPC 1.53 only resets the stream, {@code CANCELLED},
     * and logs a stack trace); beyond twice the limit the transport resets the stream without reading further.
     */
    public NettyServerBuilder applyTo(NettyServerBuilder builder, int maxInboundMessageBytes) {
        ChannelFactory<ServerChannel> listening = () -> {
            ServerChannel channel = epoll ? new EpollServerSocketChannel() : new NioServerSocketChannel();
            // First in the pipeline: the bootstrap's acceptor, added after, sees only the sockets let through.
            channel.pipeline().addLast(cap);
            return channel;
        };
        return builder.bossEventLoopGroup(acceptor).workerEventLoopGroup(workers).channelFactory(listening)
                .handshakeTimeout(limits.handshakeTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .maxConcurrentCallsPerConnection(limits.maxConcurrentCallsPerConnection())
                .keepAliveTime(limits.keepAliveTime().toMillis(), TimeUnit.MILLISECONDS)
                .keepAliveTimeout(limits.keepAliveTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .permitKeepAliveTime(limits.permitKeepAliveTime().toMillis(), TimeUnit.MILLISECONDS)
                .maxConnectionIdle(limits.maxConnectionIdle().toMillis(), TimeUnit.MILLISECONDS)
                .maxInboundMetadataSize(limits.maxInboundMetadataSize())
                .maxInboundMessageSize(transportLimit(maxInboundMessageBytes));
    }

    /** What the transport itself accepts for a service limit of {@code maxInboundMessageBytes}: twice that. */
    public static int transportLimit(int maxInboundMessageBytes) {
        return (int) Math.min(Integer.MAX_VALUE, 2L * maxInboundMessageBytes);
    }

    /**
     * The size of an inbound message of a service that keeps its requests serialized
     * ({@code ServerInterceptors.useInputStreamMessages}): gRPC hands it over as a stream of known length.
     */
    public static int serializedSize(Object message) {
        try {
            return message instanceof java.io.InputStream in ? in.available() : 0;
        } catch (java.io.IOException e) {
            return 0;
        }
    }

    /** Sockets open now, handshaking ones included. */
    public int openConnections() {
        return cap.open.get();
    }

    /** After the server terminated: the threads finish what is queued and stop. */
    @Override
    public void close() {
        acceptor.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    @ChannelHandler.Sharable
    private static final class ConnectionCap extends ChannelInboundHandlerAdapter {
        private final int max;
        private final String server;
        private final Runnable onRefused;
        private final LogThrottle refusals;
        final AtomicInteger open = new AtomicInteger();

        ConnectionCap(int max, String server, Runnable onRefused, LogThrottle refusals) {
            this.max = max;
            this.server = server;
            this.onRefused = onRefused;
            this.refusals = refusals;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof Channel accepted)) {
                ctx.fireChannelRead(msg);
                return;
            }
            if (open.incrementAndGet() > max) {
                open.decrementAndGet();
                // Not registered yet: closing it here only closes the socket, nothing of gRPC's ever saw it.
                accepted.unsafe().closeForcibly();
                onRefused.run();
                long count = refusals.event("connection-cap");
                if (count > 0) {
                    log.warn("{}: refused {} connection(s) beyond its cap of {} open (GrpcServerLimits.maxConnections)",
                            server, count, max);
                }
                return;
            }
            accepted.closeFuture().addListener(closed -> open.decrementAndGet());
            ctx.fireChannelRead(accepted);
        }
    }
}
