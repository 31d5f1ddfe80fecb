package io.lanemq.dialtest;

import io.lanemq.support.LogThrottle;
import io.lanemq.support.NamedThreads;
import io.lanemq.support.Ticker;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The producer's end of the ack channel: a TCP listener on exactly the configured address (never a wildcard),
 * one accept thread and a small pool with one thread per connection (consumers keep one long-lived connection per
 * producer, so a handful is plenty). Frames go through {@link AckCodec}; authentic acks go to the {@link AckSink}.
 *
 * <p>Whatever arrives, the listener keeps serving: oversize or garbage length prefixes, truncated frames, bad MACs,
 * unknown runs and connections beyond the limit are dropped, counted under their {@link AckRejection} and logged
 * at most once per 10 s per reason. A connection is closed when its framing can no longer be trusted, or when it
 * stays silent for the idle timeout.
 */
final class AckListener implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AckListener.class);
    private static final int BACKLOG = 64;
    private static final int READ_BUFFER = 8 * 1024;
    /** How long a new connection may stay silent before its first frame (see {@link #serve}). */
    static final int FIRST_FRAME_MILLIS = 2_000;

    private final ServerSocket server;
    private final byte[] secret;
    private final AckSink sink;
    private final DialTestMetrics metrics;
    private final Ticker ticker;
    private final int idleTimeoutMillis;
    private final LogThrottle rejections;
    private final ThreadPoolExecutor connections;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Thread acceptor;
    private volatile boolean closed;

    private AckListener(ServerSocket server, byte[] secret, AckSink sink, DialTestMetrics metrics, Ticker ticker,
                        int maxConnections, Duration idleTimeout) {
        this.server = server;
        this.secret = secret.clone();
        this.sink = sink;
        this.metrics = metrics;
        this.ticker = ticker;
        this.idleTimeoutMillis = (int) Math.min(Integer.MAX_VALUE, idleTimeout.toMillis());
        this.rejections = LogThrottle.every(Duration.ofSeconds(10), ticker);
        this.connections = new ThreadPoolExecutor(0, maxConnections, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
            NamedThreads.numbered("lanemq-dialtest-ack-conn"));
        this.acceptor = NamedThreads.daemon("lanemq-dialtest-ack-listener", this::acceptLoop);
    }

    /**
     * Binds {@code address} (port 0 = any free port) and starts serving.
     *
     * @param maxConnections connections served at once; more are closed at once and counted
     * @param idleTimeout    a connection silent this long is closed (consumers reconnect when they need to)
     * @throws UncheckedIOException when the address cannot be bound, naming it
     */
    static AckListener start(InetSocketAddress address, byte[] secret, AckSink sink, DialTestMetrics metrics,
                             Ticker ticker, int maxConnections, Duration idleTimeout) {
        new AckCodec(secret); // rejects a short secret before anything is bound
        ServerSocket server = null;
        try {
            server = new ServerSocket();
            server.setReuseAddress(true);
            server.bind(address, BACKLOG);
            AckListener listener = new AckListener(server, secret, sink, metrics, ticker, maxConnections, idleTimeout);
            listener.acceptor.start();
            LOG.info("ack listener on {}", listener.address());
            return listener;
        } catch (IOException e) {
            closeQuietly(server);
            throw new UncheckedIOException("cannot listen for acks on " + address + ": " + e.getMessage(), e);
        }
    }

    /** The bound address, which probe bodies carry. */
    InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    rejections.warn(LOG, "accept", "accepting an ack connection failed: {}", e.toString());
                }
                continue;
            }
            try {
                connections.execute(() -> serve(socket));
            } catch (RejectedExecutionException e) {
                reject(AckRejection.CONNECTION_LIMIT, socket, "more than " + connections.getMaximumPoolSize()
                    + " connections at once");
                closeQuietly(socket);
            }
        }
    }

    private void serve(Socket socket) {
        open.add(socket);
        int silentLimit = Math.min(idleTimeoutMillis, FIRST_FRAME_MILLIS);
        try {
            if (closed) {
                return;
            }
            // A sender connects when it has acks to write, so its first frame follows at once. A connection that
            // stays silent holds one of the few slots: without this, a burst of idle connections would keep the
            // real senders out for the whole idle timeout.
            socket.setSoTimeout(silentLimit);
            socket.setTcpNoDelay(true);
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), READ_BUFFER));
            AckCodec codec = new AckCodec(secret);
            boolean first = true;
            while (!closed && readOne(codec, in, socket)) {
                if (first) {
                    silentLimit = idleTimeoutMillis;
                    socket.setSoTimeout(silentLimit);
                    first = false;
                }
            }
        } catch (SocketTimeoutException e) {
            reject(AckRejection.IDLE_TIMEOUT, socket, "silent for " + silentLimit + " ms");
        } catch (SocketException e) {
            LOG.debug("ack connection from {} ended: {}", socket.getRemoteSocketAddress(), e.toString());
        } catch (IOException | RuntimeException e) {
            // Whatever a peer sends, the listener must keep serving the others: close this one, log, go on.
            rejections.warn(LOG, "io", "ack connection from {} failed: {}", socket.getRemoteSocketAddress(), e.toString());
        } finally {
            open.remove(socket);
            closeQuietly(socket);
        }
    }

    /** Reads and handles one frame; false when the connection should end. */
    private boolean readOne(AckCodec codec, DataInputStream in, Socket socket) throws IOException {
        AckFrame frame;
        try {
            frame = codec.read(in);
        } catch (AckFrameException e) {
            reject(e.reason(), socket, e.getMessage());
            return e.connectionUsable();
        }
        if (frame == null) {
            return false;
        }
        AckSink.Outcome outcome = sink.onAck(frame, ticker.read());
        if (outcome == AckSink.Outcome.UNKNOWN_RUN) {
            reject(AckRejection.UNKNOWN_RUN, socket, "ack for run " + Long.toHexString(frame.runId()));
        } else if (outcome == AckSink.Outcome.UNKNOWN_PROBE) {
            reject(AckRejection.UNKNOWN_PROBE, socket, "ack for unknown sequence " + frame.sequence());
        }
        return true;
    }

    private void reject(AckRejection reason, Socket socket, String detail) {
        metrics.rejected(reason);
        rejections.warn(LOG, reason.label(), "dropped ack input ({}) from {}: {}", reason.label(),
            socket.getRemoteSocketAddress(), detail);
    }

    /** Stops accepting, closes every connection and waits briefly for the threads to end. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        closeQuietly(server);
        open.forEach(AckListener::closeQuietly);
        connections.shutdownNow();
        try {
            acceptor.join(TimeUnit.SECONDS.toMillis(5));
            connections.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // closing after a failure or at shutdown: nothing left to do with it
            }
        }
    }
}
