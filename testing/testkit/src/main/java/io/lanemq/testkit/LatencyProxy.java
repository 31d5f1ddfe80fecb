package io.lanemq.testkit;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A loopback TCP forwarder that makes a server answer slowly: it accepts connections on a listen address, opens
 * one connection to the target for each, and forwards bytes both ways, holding back every chunk that flows from
 * the target to the client (the responses) for {@link #delay()}. Requests pass at once.
 *
 * <p>The delay is added latency, not lower throughput: a chunk read from the target at time {@code t} is written
 * to the client at {@code t + delay}, so responses that follow each other closely still arrive close together,
 * each {@code delay} late. Bytes keep their order per connection, also when the delay changes while data is
 * held back. When the target refuses a connection or closes one, the client's connection is closed too, so a
 * dead server looks dead through the proxy rather than hung.
 *
 * <pre>{@code
 * try (LatencyProxy proxy = LatencyProxy.start(new InetSocketAddress("127.0.0.1", 0), server)) {
 *     proxy.setDelay(Duration.ofMillis(100));         // every response from now on arrives 100 ms later
 *     Socket client = new Socket("127.0.0.1", proxy.listenAddress().getPort());
 * }
 * }</pre>
 *
 * <p>Threads: one named daemon thread accepts per listen address, three per open connection (request, response
 * read, response write); the load this is meant for is a few thousand small messages per second over a few
 * connections. Thread-safety: all methods may be called from any thread.
 */
public final class LatencyProxy implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LatencyProxy.class);
    private static final long ACCEPT_EXIT_WAIT_MILLIS = 5_000;
    private static final long REBIND_WAIT_MILLIS = 5_000;

    private final List<Listener> listeners = new ArrayList<>();
    private final Set<ProxyConnection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicLong connectionIds = new AtomicLong();
    private volatile long delayNanos;
    private volatile boolean closed;

    /** Where a proxy listens and where it forwards what it accepts there. */
    record Route(InetSocketAddress listen, InetSocketAddress target) {
        Route {
            Objects.requireNonNull(listen, "listen");
            Objects.requireNonNull(target, "target");
        }
    }

    private LatencyProxy() {
    }

    /**
     * Listens on {@code listen} (port 0 picks a free port, see {@link #listenAddress()}) and forwards every
     * connection to {@code target}, with no delay until {@link #setDelay(Duration)}.
     *
     * @throws TestkitException if {@code listen} cannot be bound
     */
    public static LatencyProxy start(InetSocketAddress listen, InetSocketAddress target) {
        return start(List.of(new Route(listen, target)));
    }

    /** One proxy for several routes that share one delay, e.g. a broker's main and VIP ports. */
    static LatencyProxy start(List<Route> routes) {
        if (routes.isEmpty()) {
            throw new IllegalArgumentException("a LatencyProxy needs at least one route");
        }
        LatencyProxy proxy = new LatencyProxy();
        try {
            for (Route route : routes) {
                proxy.listeners.add(proxy.new Listener(route));
            }
        } catch (RuntimeException e) {
            proxy.close();
            throw e;
        }
        proxy.listeners.forEach(Listener::startAccepting);
        return proxy;
    }

    /** The delay added to every chunk from target to client (zero until set). */
    public Duration delay() {
        return Duration.ofNanos(delayNanos);
    }

    /**
     * Sets the delay of every chunk read from the target from now on, on all open and future connections. Chunks
     * already held back keep their time, and nothing overtakes them: lowering the delay takes full effect once
     * they are written.
     */
    public void setDelay(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative: " + delay);
        }
        this.delayNanos = delay.toNanos();
    }

    /** The address this proxy listens on (of its first route), with the actual port. */
    public InetSocketAddress listenAddress() {
        return listeners.get(0).boundAddress();
    }

    /** The address this proxy forwards to (of its first route). */
    public InetSocketAddress targetAddress() {
        return listeners.get(0).route.target();
    }

    /** Connections open right now, through all routes. */
    public int openConnections() {
        return connections.size();
    }

    /** Closes the listen sockets (the port is free again when this returns) and every open connection. */
    @Override
    public void close() {
        closed = true;
        listeners.forEach(Listener::close);
        connections.forEach(ProxyConnection::close);
    }

    /**
     * Makes the proxy look like the target's host with nothing listening, e.g. while the target is killed: closes
     * the listen sockets, so new connections are refused, and every open connection.
     *
     * <p>Why not keep accepting and close each connection whose target is unreachable: the client's connect
     * succeeds then, and a request it writes before the proxy closes the connection is lost in between. RocketMQ's
     * client (5.3.3) fails pending requests when it closes a channel itself, not when the peer does, so such a
     * request waits for its whole timeout where a real dead broker fails it at once.
     */
    public void refuseConnections() {
        listeners.forEach(Listener::close);
        connections.forEach(ProxyConnection::close);
    }

    /**
     * Listens again on the same ports after {@link #refuseConnections()}; does nothing on a proxy that listens.
     *
     * @throws TestkitException if a port cannot be bound again within a few seconds
     */
    public void acceptConnections() {
        if (closed) {
            throw new IllegalStateException("the latency proxy is closed: " + this);
        }
        listeners.forEach(Listener::listenAgain);
    }

    long delayNanos() {
        return delayNanos;
    }

    void closed(ProxyConnection connection) {
        connections.remove(connection);
    }

    @Override
    public String toString() {
        return "LatencyProxy" + listeners.stream().map(l -> l.route.listen() + "->" + l.route.target()).toList()
            + "[delay=" + delay().toMillis() + " ms]";
    }

    private final class Listener {
        private final Route route;
        private final String threadPrefix;
        private ServerSocket server;
        private Thread acceptor;

        Listener(Route route) {
            this.route = route;
            this.server = bind(route.listen());
            this.threadPrefix = "lanemq-testkit-latency-proxy-" + server.getLocalPort();
        }

        private static ServerSocket bind(InetSocketAddress address) {
            try {
                ServerSocket socket = new ServerSocket();
                // Accepted connections linger in TIME_WAIT after a close; the port must be bindable again at once.
                socket.setReuseAddress(true);
                socket.bind(address);
                return socket;
            } catch (IOException e) {
                // The message keeps the OS's "Address already in use", on which the stack retries with new ports.
                throw new TestkitException("latency proxy cannot listen on " + address + ": " + e.getMessage(), e);
            }
        }

        synchronized InetSocketAddress boundAddress() {
            return (InetSocketAddress) server.getLocalSocketAddress();
        }

        synchronized void startAccepting() {
            ServerSocket socket = server;
            acceptor = new Thread(() -> acceptLoop(socket), threadPrefix + "-accept");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        /** Binds the port it listened on before {@link #close()} again and accepts; no-op while listening. */
        synchronized void listenAgain() {
            if (!server.isClosed()) {
                return;
            }
            InetSocketAddress address = new InetSocketAddress(route.listen().getAddress(), server.getLocalPort());
            server = bindWithin(address, REBIND_WAIT_MILLIS);
            startAccepting();
        }

        private static ServerSocket bindWithin(InetSocketAddress address, long waitMillis) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
            while (true) {
                try {
                    return bind(address);
                } catch (TestkitException e) {
                    // A connection of the last life of this port may hold it for a moment after its close.
                    if (System.nanoTime() > deadline) {
                        throw e;
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
                }
            }
        }

        private void acceptLoop(ServerSocket socket) {
            while (!closed && !socket.isClosed()) {
                Socket client;
                try {
                    client = socket.accept();
                } catch (IOException e) {
                    if (!closed && !socket.isClosed()) {
                        LOG.warn("latency proxy {} stops accepting", route, e);
                        close();
                    }
                    return;
                }
                ProxyConnection connection = new ProxyConnection(LatencyProxy.this, client, route.target(),
                    threadPrefix + "-" + connectionIds.incrementAndGet());
                connections.add(connection);
                if (closed || socket.isClosed()) {
                    connection.close();
                    return;
                }
                connection.start();
            }
        }

        /** Closes the listen socket; returns when its port is free. */
        void close() {
            ServerSocket socket;
            Thread thread;
            synchronized (this) {
                socket = server;
                thread = acceptor;
            }
            try {
                socket.close();
            } catch (IOException e) {
                LOG.debug("closing the listen socket {} failed", route.listen(), e);
            }
            // While a thread is blocked in accept(), the JDK only pre-closes the socket and signals that thread;
            // the port is released when it leaves accept(). Waiting for it makes close() free the port.
            if (thread == null || thread == Thread.currentThread()) {
                return;
            }
            try {
                thread.join(ACCEPT_EXIT_WAIT_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
