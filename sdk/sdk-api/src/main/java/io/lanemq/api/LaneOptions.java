package io.lanemq.api;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How an application instance takes part in lanes: the lane it runs in, and the endpoint where other
 * instances of its consumer groups forward it the messages of its lane. Immutable; build it with
 * {@link #builder()}. Without lane options a client's consumers process every message they receive,
 * whatever its lane, and are not known to the lane routing of the others.
 *
 * <p>Forwarding is mutually authenticated: the endpoint serves TLS with {@code certificateChain}
 * and {@code privateKey}, a forwarder checks that certificate against {@code trustedCertificates},
 * and every call carries {@code token}, the platform's forwarding secret, which the endpoint
 * checks. The token comes from the application's secret store; {@link #toString()} does not show it.
 *
 * <pre>{@code
 * LaneOptions lanes = LaneOptions.builder()
 *         .lane(System.getenv("LANE"))            // null or empty: the base
 *         .listen("0.0.0.0", 7070).advertisedHost(podIp)
 *         .tls(Path.of("/etc/lanemq/tls.crt"), Path.of("/etc/lanemq/tls.key"), Path.of("/etc/lanemq/ca.crt"))
 *         .token(System.getenv("LANEMQ_LANE_TOKEN"))
 *         .build();
 * }</pre>
 */
public final class LaneOptions {
    private final Lane lane;
    private final String listenHost;
    private final int listenPort;
    private final String advertisedHost;
    private final Path certificateChain;
    private final Path privateKey;
    private final Path trustedCertificates;
    private final String token;
    private final Duration forwardTimeout;
    private final int serverThreads;
    private final Duration membershipRefresh;

    private LaneOptions(Builder b) {
        this.lane = b.lane;
        this.listenHost = b.listenHost;
        this.listenPort = b.listenPort;
        this.advertisedHost = b.advertisedHost != null ? b.advertisedHost : b.listenHost;
        this.certificateChain = b.certificateChain;
        this.privateKey = b.privateKey;
        this.trustedCertificates = b.trustedCertificates;
        this.token = b.token;
        this.forwardTimeout = b.forwardTimeout;
        this.serverThreads = b.serverThreads;
        this.membershipRefresh = b.membershipRefresh;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The lane this instance runs in; empty for the base. */
    public Optional<Lane> lane() {
        return Optional.ofNullable(lane);
    }

    /** The address the forwarding endpoint binds. */
    public String listenHost() {
        return listenHost;
    }

    /** The port the forwarding endpoint binds; 0 picks a free one. */
    public int listenPort() {
        return listenPort;
    }

    /** The host other instances reach the endpoint at. */
    public String advertisedHost() {
        return advertisedHost;
    }

    public Path certificateChain() {
        return certificateChain;
    }

    public Path privateKey() {
        return privateKey;
    }

    public Path trustedCertificates() {
        return trustedCertificates;
    }

    /** The forwarding secret; never logged. */
    public String token() {
        return token;
    }

    /** How long a forwarder waits for the lane's consumer to process a message before it retries the message later. */
    public Duration forwardTimeout() {
        return forwardTimeout;
    }

    /** Threads that run forwarded messages through this instance's listeners. */
    public int serverThreads() {
        return serverThreads;
    }

    /** How often the live members of a consumer group and their lanes are read again. */
    public Duration membershipRefresh() {
        return membershipRefresh;
    }

    @Override
    public String toString() {
        return "LaneOptions[lane=" + (lane == null ? "base" : lane.path()) + ", listen=" + listenHost + ":" + listenPort
                + ", advertisedHost=" + advertisedHost + ", forwardTimeout=" + forwardTimeout + ", token=(set)]";
    }

    /** Builds {@link LaneOptions}; not thread-safe. */
    public static final class Builder {
        private Lane lane;
        private String listenHost = "127.0.0.1";
        private int listenPort;
        private String advertisedHost;
        private Path certificateChain;
        private Path privateKey;
        private Path trustedCertificates;
        private String token;
        private Duration forwardTimeout = Duration.ofSeconds(30);
        private int serverThreads = 8;
        private Duration membershipRefresh = Duration.ofSeconds(2);

        private Builder() {
        }

        /** The lane path, such as {@code "A.X"}; null or empty means the base. */
        public Builder lane(String path) {
            this.lane = path == null || path.isEmpty() ? null : Lane.of(path);
            return this;
        }

        public Builder listen(String host, int port) {
            this.listenHost = Names.requireText("listen host", host);
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("listen port must be 0-65535, was " + port);
            }
            this.listenPort = port;
            return this;
        }

        /** Where other instances connect; by default the listen host. Required when listening on a wildcard address. */
        public Builder advertisedHost(String host) {
            this.advertisedHost = Names.requireText("advertisedHost", host);
            return this;
        }

        public Builder tls(Path certificateChain, Path privateKey, Path trustedCertificates) {
            this.certificateChain = Objects.requireNonNull(certificateChain, "certificateChain");
            this.privateKey = Objects.requireNonNull(privateKey, "privateKey");
            this.trustedCertificates = Objects.requireNonNull(trustedCertificates, "trustedCertificates");
            return this;
        }

        /** The forwarding secret: visible ASCII without spaces, at least 16 characters. */
        public Builder token(String token) {
            // Sent as an HTTP/2 header; the message never quotes the token, which is a secret.
            if (token == null || token.length() < 16 || !token.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
                throw new IllegalArgumentException("lane token must be at least 16 characters of visible ASCII without spaces");
            }
            this.token = token;
            return this;
        }

        public Builder forwardTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "forwardTimeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("forwardTimeout must be positive, was " + timeout);
            }
            this.forwardTimeout = timeout;
            return this;
        }

        public Builder serverThreads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("serverThreads must be >= 1, was " + threads);
            }
            this.serverThreads = threads;
            return this;
        }

        public Builder membershipRefresh(Duration interval) {
            Objects.requireNonNull(interval, "membershipRefresh");
            if (interval.toMillis() < 100) {
                throw new IllegalArgumentException("membershipRefresh must be at least 100 ms, was " + interval);
            }
            this.membershipRefresh = interval;
            return this;
        }

        /** @throws IllegalStateException TLS or token missing, or a wildcard listen address without an advertised host */
        public LaneOptions build() {
            if (certificateChain == null) {
                throw new IllegalStateException("lane options need tls(certificateChain, privateKey, trustedCertificates)");
            }
            if (token == null) {
                throw new IllegalStateException("lane options need the forwarding token (token)");
            }
            if (advertisedHost == null && (listenHost.equals("0.0.0.0") || listenHost.equals("::"))) {
                throw new IllegalStateException("listening on " + listenHost + " needs an advertisedHost other instances can reach");
            }
            return new LaneOptions(this);
        }
    }
}
