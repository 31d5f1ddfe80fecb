package io.lanemq.grpc.server;

import java.time.Duration;
import java.util.Objects;

/**
 * What one of LaneMQ's gRPC servers (the consumer proxy, a lane forwarding endpoint) lets a client hold: how long
 * a connection may take to become TLS and HTTP/2, how many connections and calls, how idle connections are probed
 * and closed, and how large a request's metadata may be. The message size is not here: it follows the platform's
 * {@code producer.maxBodyBytes} (see {@link #maxFrameBytes(int)}), so every hop accepts what a producer may send.
 * Immutable; the builder checks each setting as it is given and names it when it refuses one.
 *
 * <pre>{@code
 * GrpcServerLimits limits = GrpcServerLimits.builder()
 *         .maxConnections(2_000)
 *         .handshakeTimeout(Duration.ofSeconds(5))
 *         .build();
 * }</pre>
 *
 * <p>The defaults and why:
 * <ul>
 * <li>{@code handshakeTimeout} 10 s (gRPC's own is 120 s): a TLS handshake takes milliseconds, tens across data
 *     centres or on a loaded host; a connection that has not finished in 10 s is a stuck or hostile client, and each
 *     one holds a socket and a TLS engine.</li>
 * <li>{@code maxConnections} 1,024: each SDK instance holds one connection per proxy endpoint or lane member, so
 *     this is hundreds of instances of headroom, while a connection flood stays far below the default file limit
 *     (the accepted socket is closed at once, before TLS starts).</li>
 * <li>{@code maxConcurrentCallsPerConnection} 256: a consumer opens one stream per subscription, a lane member one
 *     call per listener thread it forwards from. HTTP/2 makes calls beyond it wait at the client, not fail.</li>
 * <li>{@code keepAliveTime} 60 s, {@code keepAliveTimeout} 20 s: a peer gone without a FIN (a lost data centre, a
 *     NAT that forgot the flow) is found within 80 s, well before a consumer's ack timeout matters twice.</li>
 * <li>{@code permitKeepAliveTime} 10 s: the SDK pings every 30 s; a client pinging more often than every 10 s is
 *     told {@code too_many_pings} and closed, so pings cannot be used to keep the server busy.</li>
 * <li>{@code maxConnectionIdle} 10 min: longer than the lane client's own 5 min idle close, so a well-behaved client
 *     closes first; a connection with no call for that long is a leak.</li>
 * <li>{@code maxInboundMetadataSize} 8 KiB (gRPC's default, stated): our headers are an application name and a
 *     token, far below it.</li>
 * </ul>
 */
public final class GrpcServerLimits {
    /**
     * Room a frame needs beyond the largest body: keys, tag, properties, ids and protobuf framing. 256 KiB is eight
     * times RocketMQ's 32 KiB limit on a message's properties, the only unbounded part besides the body.
     */
    public static final int FRAMING_HEADROOM_BYTES = 256 * 1024;
    public static final GrpcServerLimits DEFAULTS = builder().build();

    private final Duration handshakeTimeout;
    private final int maxConnections;
    private final int maxConcurrentCallsPerConnection;
    private final Duration keepAliveTime;
    private final Duration keepAliveTimeout;
    private final Duration permitKeepAliveTime;
    private final Duration maxConnectionIdle;
    private final int maxInboundMetadataSize;

    private GrpcServerLimits(Builder b) {
        this.handshakeTimeout = b.handshakeTimeout;
        this.maxConnections = b.maxConnections;
        this.maxConcurrentCallsPerConnection = b.maxConcurrentCallsPerConnection;
        this.keepAliveTime = b.keepAliveTime;
        this.keepAliveTimeout = b.keepAliveTimeout;
        this.permitKeepAliveTime = b.permitKeepAliveTime;
        this.maxConnectionIdle = b.maxConnectionIdle;
        this.maxInboundMetadataSize = b.maxInboundMetadataSize;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these limits, to change a few. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.handshakeTimeout = handshakeTimeout;
        b.maxConnections = maxConnections;
        b.maxConcurrentCallsPerConnection = maxConcurrentCallsPerConnection;
        b.keepAliveTime = keepAliveTime;
        b.keepAliveTimeout = keepAliveTimeout;
        b.permitKeepAliveTime = permitKeepAliveTime;
        b.maxConnectionIdle = maxConnectionIdle;
        b.maxInboundMetadataSize = maxInboundMetadataSize;
        return b;
    }

    /**
     * The largest gRPC message a LaneMQ server or client must accept when bodies may be {@code maxBodyBytes} long:
     * the body plus {@link #FRAMING_HEADROOM_BYTES}. One message alone may always take a whole frame.
     */
    public static int maxFrameBytes(int maxBodyBytes) {
        if (maxBodyBytes < 1) {
            throw new IllegalArgumentException("producer.maxBodyBytes must be positive, was " + maxBodyBytes);
        }
        return (int) Math.min(Integer.MAX_VALUE, (long) maxBodyBytes + FRAMING_HEADROOM_BYTES);
    }

    public Duration handshakeTimeout() {
        return handshakeTimeout;
    }

    public int maxConnections() {
        return maxConnections;
    }

    public int maxConcurrentCallsPerConnection() {
        return maxConcurrentCallsPerConnection;
    }

    public Duration keepAliveTime() {
        return keepAliveTime;
    }

    public Duration keepAliveTimeout() {
        return keepAliveTimeout;
    }

    public Duration permitKeepAliveTime() {
        return permitKeepAliveTime;
    }

    public Duration maxConnectionIdle() {
        return maxConnectionIdle;
    }

    public int maxInboundMetadataSize() {
        return maxInboundMetadataSize;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GrpcServerLimits other && handshakeTimeout.equals(other.handshakeTimeout)
                && maxConnections == other.maxConnections
                && maxConcurrentCallsPerConnection == other.maxConcurrentCallsPerConnection
                && keepAliveTime.equals(other.keepAliveTime) && keepAliveTimeout.equals(other.keepAliveTimeout)
                && permitKeepAliveTime.equals(other.permitKeepAliveTime) && maxConnectionIdle.equals(other.maxConnectionIdle)
                && maxInboundMetadataSize == other.maxInboundMetadataSize;
    }

    @Override
    public int hashCode() {
        return Objects.hash(handshakeTimeout, maxConnections, maxConcurrentCallsPerConnection, keepAliveTime,
                keepAliveTimeout, permitKeepAliveTime, maxConnectionIdle, maxInboundMetadataSize);
    }

    @Override
    public String toString() {
        return "GrpcServerLimits[handshakeTimeout=" + handshakeTimeout + ", maxConnections=" + maxConnections
                + ", maxConcurrentCallsPerConnection=" + maxConcurrentCallsPerConnection + ", keepAliveTime=" + keepAliveTime
                + ", keepAliveTimeout=" + keepAliveTimeout + ", permitKeepAliveTime=" + permitKeepAliveTime
                + ", maxConnectionIdle=" + maxConnectionIdle + ", maxInboundMetadataSize=" + maxInboundMetadataSize + "]";
    }

    /** Not thread-safe. */
    public static final class Builder {
        private static final String NAME = "GrpcServerLimits.";

        private Duration handshakeTimeout = Duration.ofSeconds(10);
        private int maxConnections = 1024;
        private int maxConcurrentCallsPerConnection = 256;
        private Duration keepAliveTime = Duration.ofSeconds(60);
        private Duration keepAliveTimeout = Duration.ofSeconds(20);
        private Duration permitKeepAliveTime = Duration.ofSeconds(10);
        private Duration maxConnectionIdle = Duration.ofMinutes(10);
        private int maxInboundMetadataSize = 8 * 1024;

        private Builder() {
        }

        public Builder handshakeTimeout(Duration timeout) {
            this.handshakeTimeout = positive(timeout, "handshakeTimeout");
            return this;
        }

        /** Connections beyond this many are closed as soon as they are accepted. */
        public Builder maxConnections(int connections) {
            this.maxConnections = atLeast(connections, 1, "maxConnections");
            return this;
        }

        public Builder maxConcurrentCallsPerConnection(int calls) {
            this.maxConcurrentCallsPerConnection = atLeast(calls, 1, "maxConcurrentCallsPerConnection");
            return this;
        }

        /** The server pings a connection idle this long, and closes it when the ack takes longer than {@code timeout}. */
        public Builder keepAlive(Duration time, Duration timeout) {
            this.keepAliveTime = positive(time, "keepAliveTime");
            this.keepAliveTimeout = positive(timeout, "keepAliveTimeout");
            return this;
        }

        public Builder permitKeepAliveTime(Duration time) {
            this.permitKeepAliveTime = positive(time, "permitKeepAliveTime");
            return this;
        }

        public Builder maxConnectionIdle(Duration idle) {
            this.maxConnectionIdle = positive(idle, "maxConnectionIdle");
            return this;
        }

        public Builder maxInboundMetadataSize(int bytes) {
            this.maxInboundMetadataSize = atLeast(bytes, 1024, "maxInboundMetadataSize");
            return this;
        }

        public GrpcServerLimits build() {
            return new GrpcServerLimits(this);
        }

        private static Duration positive(Duration value, String name) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(NAME + name + " must be positive, was " + value);
            }
            return value;
        }

        private static int atLeast(int value, int minimum, String name) {
            if (value < minimum) {
                throw new IllegalArgumentException(NAME + name + " must be at least " + minimum + ", was " + value);
            }
            return value;
        }
    }
}
