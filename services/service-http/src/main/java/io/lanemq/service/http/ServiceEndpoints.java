package io.lanemq.service.http;

import io.lanemq.support.NamedThreads;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The operations endpoints every LaneMQ service serves, the same on each (see this module's README):
 * {@value #LIVENESS_PATH} (200 while the process answers HTTP at all), {@value #READINESS_PATH} (200 only
 * while its {@link Readiness} says so, 503 otherwise, the phase and checks as text) and {@value #METRICS_PATH}
 * (Prometheus text format). Only GET and HEAD of the exact paths are answered; anything else is 404 or 405, and
 * a request that does not parse is answered 400 and closed.
 *
 * <p>Served by Netty, non-blocking: a connection that sends half a request and waits holds no thread, so
 * {@code /readyz} and {@code /livez} are answered at once however many such connections are open. Each connection
 * must send a whole request within {@link #REQUEST_TIMEOUT} of opening or of its previous answer, else it is
 * closed; beyond {@link #MAX_CONNECTIONS} open connections the oldest is closed for each new one, so a flood
 * cannot shut a probe out. The scrape runs on a thread of its own, so a slow one delays no probe.
 *
 * <p>Netty rather than the JDK's {@code HttpServer}: the JDK server reads each request on a worker thread and has
 * only JVM-wide timeouts, so ~190 connections holding half a request line kept {@code /metrics} from answering
 * for more than 5 s behind them. Netty is on every service's class path already (RocketMQ's client brings it, same
 * version), where Jetty or Undertow would be a new server in each image.
 *
 * <pre>{@code
 * Readiness readiness = Readiness.create();
 * ServiceEndpoints http = ServiceEndpoints.start("lanemq-delay-http", HttpAddress.parse("http-address", "0.0.0.0:9406"),
 *         registry, readiness);
 * }</pre>
 */
public final class ServiceEndpoints implements AutoCloseable {
    /** Liveness: answers 200 whenever the server answers; a kubelet restarts a service that stops answering. */
    public static final String LIVENESS_PATH = "/livez";
    /** Readiness: 200 only while serving (not starting, catching up or draining). */
    public static final String READINESS_PATH = "/readyz";
    /** Prometheus scrape. */
    public static final String METRICS_PATH = "/metrics";
    /** How long a connection may take to send a whole request, from its opening or from its previous answer. */
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);
    /** Open connections beyond which the oldest is closed for each new one. */
    public static final int MAX_CONNECTIONS = 256;
    /** The longest request line and header block accepted: a probe's or a scraper's is far below. */
    static final int MAX_REQUEST_HEAD_BYTES = 8 * 1024;

    private final Channel server;
    private final EventLoopGroup acceptor;
    private final EventLoopGroup io;
    private final ExecutorService scrapes;

    /**
     * What {@code /readyz} answers.
     *
     * @param up   200 when true, 503 when false
     * @param text the body, e.g. {@code UP} and a line per component
     */
    public record Health(boolean up, String text) {
        public Health {
            Objects.requireNonNull(text, "text");
        }

        public static Health up(String text) {
            return new Health(true, text);
        }

        public static Health down(String text) {
            return new Health(false, text);
        }
    }

    private ServiceEndpoints(Channel server, EventLoopGroup acceptor, EventLoopGroup io, ExecutorService scrapes) {
        this.server = server;
        this.acceptor = acceptor;
        this.io = io;
        this.scrapes = scrapes;
    }

    /**
     * Binds {@code address} (port 0 = any free port) and serves at once.
     *
     * @param threadName the prefix of the serving threads' names ({@code -accept}, {@code -io}, {@code -scrape})
     * @param readiness  what {@code /readyz} reports; null: no {@code /readyz} (an embedded metrics endpoint)
     * @throws UncheckedIOException the address cannot be bound, with the address named
     */
    public static ServiceEndpoints start(String threadName, InetSocketAddress address, PrometheusMeterRegistry registry,
                                         Readiness readiness) {
        Objects.requireNonNull(registry, "registry");
        EventLoopGroup acceptor = new NioEventLoopGroup(1, NamedThreads.single(threadName + "-accept"));
        EventLoopGroup io = new NioEventLoopGroup(1, NamedThreads.single(threadName + "-io"));
        ExecutorService scrapes = Executors.newSingleThreadExecutor(NamedThreads.single(threadName + "-scrape"));
        ConnectionCap cap = new ConnectionCap(MAX_CONNECTIONS);
        EndpointHandler endpoints = new EndpointHandler(registry, readiness, scrapes);
        try {
            Channel server = new ServerBootstrap().group(acceptor, io).channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 128)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel channel) {
                            channel.pipeline().addLast(cap, new RequestDeadline(REQUEST_TIMEOUT),
                                    new HttpServerCodec(MAX_REQUEST_HEAD_BYTES / 2, MAX_REQUEST_HEAD_BYTES, 8 * 1024),
                                    new HttpObjectAggregator(MAX_REQUEST_HEAD_BYTES), endpoints);
                        }
                    })
                    .bind(address).syncUninterruptibly().channel();
            return new ServiceEndpoints(server, acceptor, io, scrapes);
        } catch (Exception e) { // the bind's IOException, which Netty rethrows undeclared
            shutdown(acceptor, io, scrapes);
            throw new UncheckedIOException("cannot serve metrics and health on " + address + ": " + e.getMessage(),
                    e instanceof IOException failure ? failure : new IOException(e));
        }
    }

    private static void shutdown(EventLoopGroup acceptor, EventLoopGroup io, ExecutorService scrapes) {
        acceptor.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
        io.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
        scrapes.shutdownNow();
    }

    /** The bound address (with the actual port when 0 was asked for). */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    /** {@code http://host:port/metrics}. */
    public URI metricsUri() {
        InetSocketAddress a = address();
        return URI.create("http://" + a.getAddress().getHostAddress() + ":" + a.getPort() + "/metrics");
    }

    /** Stops listening, closes every connection and stops the threads; waits for them at most a few seconds. */
    @Override
    public void close() {
        server.close().syncUninterruptibly();
        acceptor.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        io.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        scrapes.shutdownNow();
    }
}
