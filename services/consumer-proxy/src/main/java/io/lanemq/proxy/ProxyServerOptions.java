package io.lanemq.proxy;

import io.lanemq.grpc.server.GrpcServerLimits;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The proxy's own settings (the platform configuration it reads is named by {@link #configLocation()}).
 * Immutable; the builder checks each setting as it is given and the whole on {@link Builder#build()}.
 *
 * <pre>{@code
 * ProxyServerOptions config = ProxyServerOptions.builder("file:/etc/lanemq/platform.yaml")
 *         .grpcAddress(new InetSocketAddress("10.0.0.5", 7443))
 *         .tls(Path.of("/etc/lanemq/proxy.p12"), "changeit".toCharArray())
 *         .token("billing-app", "s3cret")
 *         .build();
 * }</pre>
 */
public final class ProxyServerOptions {
    /** The gRPC port when none is given. */
    public static final int DEFAULT_GRPC_PORT = 7443;
    /** The first nack backoff when none is given. */
    public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofSeconds(1);
    /** The longest nack backoff when none is given. */
    public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofMinutes(1);
    /** How long a shutdown waits for outstanding acks when nothing else is given. */
    public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(10);

    private final String configLocation;
    private final String proxyId;
    private final InetSocketAddress grpcAddress;
    private final Optional<Path> keyStore;
    private final char[] keyStorePassword;
    private final Map<String, String> tokens;
    private final Duration ackTimeout;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final Duration brokerRetryFrom;
    private final Duration drainTimeout;
    private final Duration commitInterval;
    private final Duration idleGroupTimeout;
    private final GroupLimits defaultLimits;
    private final Map<String, GroupLimits> groupLimits;
    private final GrpcServerLimits serverLimits;

    private ProxyServerOptions(Builder b) {
        this.configLocation = b.configLocation;
        this.proxyId = b.proxyId;
        this.grpcAddress = b.grpcAddress;
        this.keyStore = Optional.ofNullable(b.keyStore);
        this.keyStorePassword = b.keyStorePassword == null ? new char[0] : b.keyStorePassword.clone();
        this.tokens = Map.copyOf(b.tokens);
        this.ackTimeout = b.ackTimeout;
        this.initialBackoff = b.initialBackoff;
        this.maxBackoff = b.maxBackoff;
        this.brokerRetryFrom = b.brokerRetryFrom;
        this.drainTimeout = b.drainTimeout;
        this.commitInterval = b.commitInterval;
        this.idleGroupTimeout = b.idleGroupTimeout;
        this.defaultLimits = b.defaultLimits;
        this.groupLimits = Map.copyOf(b.groupLimits);
        this.serverLimits = b.serverLimits;
    }

    /** @param configLocation where the platform configuration is: {@code file:/path} or {@code etcd://host:port/key?cacert=...} (TLS/auth: sdk/platform-config/README.md, etcd locations) */
    public static Builder builder(String configLocation) {
        return new Builder(configLocation);
    }

    public String configLocation() {
        return configLocation;
    }

    public String proxyId() {
        return proxyId;
    }

    public InetSocketAddress grpcAddress() {
        return grpcAddress;
    }

    /** A PKCS12 key store with the server's key and certificate chain; empty only when plaintext was allowed. */
    public Optional<Path> keyStore() {
        return keyStore;
    }

    char[] keyStorePassword() {
        return keyStorePassword.clone();
    }

    /** Application name to its token. */
    Map<String, String> tokens() {
        return tokens;
    }

    public Duration ackTimeout() {
        return ackTimeout;
    }

    public Duration initialBackoff() {
        return initialBackoff;
    }

    public Duration maxBackoff() {
        return maxBackoff;
    }

    /** Retry delays from this long wait in the group's retry topic on the broker, not in the proxy's memory. */
    public Duration brokerRetryFrom() {
        return brokerRetryFrom;
    }

    public Duration drainTimeout() {
        return drainTimeout;
    }

    public Duration commitInterval() {
        return commitInterval;
    }

    /** A group without consumers for this long stops consuming, so its queues go to proxies (or DIRECT consumers) that serve it. */
    public Duration idleGroupTimeout() {
        return idleGroupTimeout;
    }

    /**
     * The gRPC server's connection, call, handshake, keepalive and idle limits. Its largest inbound message follows
     * the platform configuration's {@code producer.maxBodyBytes} ({@link GrpcServerLimits#maxFrameBytes(int)}).
     */
    public GrpcServerLimits serverLimits() {
        return serverLimits;
    }

    public GroupLimits limits(String consumerGroup) {
        return groupLimits.getOrDefault(consumerGroup, defaultLimits);
    }

    /** Not thread-safe. */
    public static final class Builder {
        private final String configLocation;
        private String proxyId = "proxy-" + ProcessHandle.current().pid();
        private InetSocketAddress grpcAddress = new InetSocketAddress("127.0.0.1", DEFAULT_GRPC_PORT);
        private Path keyStore;
        private char[] keyStorePassword;
        private boolean plaintext;
        private final Map<String, String> tokens = new HashMap<>();
        private Duration ackTimeout = Duration.ofSeconds(30);
        private Duration initialBackoff = DEFAULT_INITIAL_BACKOFF;
        private Duration maxBackoff = DEFAULT_MAX_BACKOFF;
        private Duration brokerRetryFrom = Duration.ofSeconds(5);
        private Duration drainTimeout = DEFAULT_DRAIN_TIMEOUT;
        private Duration commitInterval = Duration.ofSeconds(1);
        private Duration idleGroupTimeout = Duration.ofSeconds(30);
        private GroupLimits defaultLimits = GroupLimits.DEFAULTS;
        private final Map<String, GroupLimits> groupLimits = new HashMap<>();
        private GrpcServerLimits serverLimits = GrpcServerLimits.DEFAULTS;

        private Builder(String configLocation) {
            this.configLocation = requireText(configLocation, "configLocation");
        }

        public Builder proxyId(String proxyId) {
            this.proxyId = requireText(proxyId, "proxyId");
            return this;
        }

        /** Port 0 picks a free port. Only this address is bound. */
        public Builder grpcAddress(InetSocketAddress address) {
            this.grpcAddress = Objects.requireNonNull(address, "grpcAddress");
            return this;
        }

        public Builder tls(Path pkcs12KeyStore, char[] password) {
            this.keyStore = Objects.requireNonNull(pkcs12KeyStore, "keyStore");
            this.keyStorePassword = Objects.requireNonNull(password, "keyStorePassword").clone();
            return this;
        }

        /** Serves without TLS: for a loopback-only development setup; tokens then travel in clear. */
        public Builder allowPlaintext() {
            this.plaintext = true;
            return this;
        }

        public Builder token(String application, String token) {
            requireText(application, "application");
            if (Objects.requireNonNull(token, "token").length() < 8) {
                throw new IllegalArgumentException("token of application '" + application + "' must have at least 8 characters");
            }
            tokens.put(application, token);
            return this;
        }

        public Builder ackTimeout(Duration timeout) {
            this.ackTimeout = positive(timeout, "ackTimeout");
            return this;
        }

        public Builder backoff(Duration initial, Duration max) {
            if (initial.isNegative() || max.compareTo(initial) < 0) {
                throw new IllegalArgumentException("backoff must satisfy 0 <= initial <= max, was " + initial + " and " + max);
            }
            this.initialBackoff = initial;
            this.maxBackoff = max;
            return this;
        }

        /**
         * A nack's retry delay (given, or the backoff) from this long on parks the message in the group's retry
         * topic as a broker timer message, so it no longer holds a place of the group's max in flight nor its
         * queue's offset, and a proxy restart keeps its due time. Shorter delays wait in memory, where they are
         * exact (the broker's timer has a precision of its own). Ordered messages always wait in memory: a retry
         * topic would break their key's order.
         */
        public Builder brokerRetryFrom(Duration threshold) {
            this.brokerRetryFrom = positive(threshold, "brokerRetryFrom");
            return this;
        }

        public Builder drainTimeout(Duration timeout) {
            if (timeout.isNegative()) {
                throw new IllegalArgumentException("drainTimeout must not be negative, was " + timeout);
            }
            this.drainTimeout = timeout;
            return this;
        }

        public Builder commitInterval(Duration interval) {
            this.commitInterval = positive(interval, "commitInterval");
            return this;
        }

        public Builder idleGroupTimeout(Duration timeout) {
            this.idleGroupTimeout = positive(timeout, "idleGroupTimeout");
            return this;
        }

        public Builder defaultLimits(GroupLimits limits) {
            this.defaultLimits = Objects.requireNonNull(limits, "defaultLimits");
            return this;
        }

        public Builder groupLimits(String consumerGroup, GroupLimits limits) {
            groupLimits.put(requireText(consumerGroup, "consumerGroup"), Objects.requireNonNull(limits, "limits"));
            return this;
        }

        public Builder serverLimits(GrpcServerLimits limits) {
            this.serverLimits = Objects.requireNonNull(limits, "serverLimits");
            return this;
        }

        public ProxyServerOptions build() {
            if (keyStore == null && !plaintext) {
                throw new IllegalArgumentException("the proxy needs a TLS key store (tls(...)); allowPlaintext() only for loopback development");
            }
            // Tokens travel in every call's headers: in clear only where nothing leaves the host.
            if (keyStore == null && !(grpcAddress.getAddress() != null && grpcAddress.getAddress().isLoopbackAddress())) {
                throw new IllegalArgumentException("plaintext is allowed only on a loopback address, but grpcAddress is "
                        + grpcAddress.getHostString() + ":" + grpcAddress.getPort() + ": give the proxy a TLS key store (tls(...))");
            }
            if (tokens.isEmpty()) {
                throw new IllegalArgumentException("no application tokens: every call would be refused; add token(application, token)");
            }
            return new ProxyServerOptions(this);
        }

        private static String requireText(String value, String name) {
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException(name + " must not be null or blank");
            }
            return value;
        }

        private static Duration positive(Duration value, String name) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + " must be positive, was " + value);
            }
            return value;
        }
    }
}
