package io.lanemq.dialtest;

import io.lanemq.support.LogThrottle;
import io.lanemq.support.Ticker;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Acks over TCP with {@link AckCodec} frames: one long-lived connection per producer address, written under that
 * connection's lock and flushed once per batch. A connection idle for a while is replaced before use (the listener
 * closes silent connections, and a write into a connection the peer has closed can succeed and still be lost). An
 * address that refused or failed is not tried again for a short back-off, so acks for a dead producer (a probe left
 * over from an earlier run) cost nothing.
 */
final class TcpAckSender implements AckSender {

    private static final Logger LOG = LoggerFactory.getLogger(TcpAckSender.class);
    private static final int CONNECT_TIMEOUT_MILLIS = 1_000;
    private static final int MAX_ADDRESSES = 256;
    private static final long REPLACE_IDLE_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final long BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final byte[] secret;
    private final Ticker ticker;
    private final LogThrottle failures;
    private final ConcurrentHashMap<String, Connection> connections = new ConcurrentHashMap<>();
    private volatile boolean closed;

    TcpAckSender(byte[] secret, Ticker ticker) {
        new AckCodec(secret); // rejects a short secret at once
        this.secret = secret.clone();
        this.ticker = ticker;
        this.failures = LogThrottle.every(Duration.ofSeconds(10), ticker);
    }

    @Override
    public int send(String host, int port, List<AckFrame> acks) {
        if (acks.isEmpty()) {
            return 0;
        }
        if (closed) {
            return acks.size();
        }
        String key = host + ":" + port;
        Connection connection = connections.get(key);
        if (connection == null) {
            if (connections.size() >= MAX_ADDRESSES) {
                evictIdle();
            }
            connection = connections.computeIfAbsent(key, k -> new Connection(host, port));
        }
        return connection.send(acks);
    }

    private void evictIdle() {
        long now = ticker.read();
        connections.values().removeIf(c -> c.closeIfIdle(now));
    }

    @Override
    public void close() {
        closed = true;
        connections.values().forEach(Connection::close);
        connections.clear();
    }

    /** One producer's connection; all access under its lock. */
    private final class Connection {
        private final String host;
        private final int port;
        private final AckCodec codec = new AckCodec(secret);
        private Socket socket;
        private OutputStream out;
        private long lastUsedNanos;
        private long backoffUntilNanos;
        private boolean inBackoff;

        Connection(String host, int port) {
            this.host = host;
            this.port = port;
        }

        synchronized int send(List<AckFrame> acks) {
            long now = ticker.read();
            if (inBackoff && now - backoffUntilNanos < 0) {
                return acks.size();
            }
            inBackoff = false;
            if (socket != null && now - lastUsedNanos > REPLACE_IDLE_NANOS) {
                disconnect();
            }
            // One retry on a fresh connection: the old one may have been closed by the listener meanwhile.
            for (int attempt = 0; attempt < 2; attempt++) {
                try {
                    if (socket == null) {
                        connect();
                    }
                    for (AckFrame ack : acks) {
                        out.write(codec.encode(ack));
                    }
                    out.flush();
                    lastUsedNanos = ticker.read();
                    return 0;
                } catch (IOException e) {
                    disconnect();
                    if (attempt == 1) {
                        failures.warn(LOG, host + ":" + port, "cannot deliver {} acks to {}:{}: {}", acks.size(), host, port,
                            e.toString());
                    }
                }
            }
            inBackoff = true;
            backoffUntilNanos = ticker.read() + BACKOFF_NANOS;
            return acks.size();
        }

        private void connect() throws IOException {
            Socket s = new Socket();
            try {
                s.setTcpNoDelay(true);
                s.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MILLIS);
                out = new BufferedOutputStream(s.getOutputStream(), 8 * 1024);
                socket = s;
            } catch (IOException e) {
                s.close();
                throw e;
            }
        }

        synchronized boolean closeIfIdle(long now) {
            if (now - lastUsedNanos > REPLACE_IDLE_NANOS) {
                disconnect();
                return true;
            }
            return false;
        }

        synchronized void close() {
            disconnect();
        }

        private void disconnect() {
            if (socket != null) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // already broken: nothing to do
                }
            }
            socket = null;
            out = null;
        }
    }
}
