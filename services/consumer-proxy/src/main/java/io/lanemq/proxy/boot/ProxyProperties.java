package io.lanemq.proxy.boot;

import io.lanemq.grpc.server.GrpcServerLimits;
import io.lanemq.proxy.GroupLimits;
import io.lanemq.proxy.ProxyServerOptions;
import io.lanemq.service.http.GracefulShutdown;
import io.lanemq.service.http.HttpAddress;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.convert.DurationUnit;

/**
 * {@code lanemq.proxy.*}: what the service is started with. Bound by Spring, then turned into a validated
 * {@link ProxyServerOptions} by {@link #toProxyConfig()}; every problem is reported with the property's name.
 * Durations take {@code 500ms}, {@code 30s}, {@code 1m}; a bare number is milliseconds.
 *
 * <p>A proxy setting left unset (null here) keeps the default {@link ProxyServerOptions.Builder} declares, so each knob
 * has its default and its validation in one place; only what the Spring service adds around the proxy (the HTTP
 * address, the shutdown's grace and readiness delay, where the key store's password and the tokens come from) is
 * declared here.
 */
@ConfigurationProperties("lanemq.proxy")
public class ProxyProperties {
    static final String PREFIX = "lanemq.proxy.";
    /** The HTTP port of /livez, /readyz and /metrics when none is given. */
    public static final int DEFAULT_HTTP_PORT = 9464;

    /** Platform configuration: file:/path/platform.yaml or etcd://host:port/key?cacert=/path/ca.pem (TLS/auth: sdk/platform-config/README.md, etcd locations). Required. */
    private String configLocation;
    /** gRPC address to bind (only this one), host:port; default 127.0.0.1:{@value ProxyServerOptions#DEFAULT_GRPC_PORT}. */
    private String listen;
    /** Where /livez, /readyz and /metrics are served, host:port (port 0 = any free port). */
    private String httpAddress = "127.0.0.1:" + DEFAULT_HTTP_PORT;
    /** On SIGTERM: not ready at once, then the graceful stop (drain included), for at most this long. */
    @DurationUnit(ChronoUnit.MILLIS)
    private Duration shutdownGrace = Duration.ofSeconds(30);
    /** On SIGTERM: keep serving, not ready, this long before the graceful stop, while load balancers stop routing here. */
    @DurationUnit(ChronoUnit.MILLIS)
    private Duration readinessDelay = Duration.ZERO;
    /** PKCS12 key store with the server key and certificate chain. */
    private Path tlsKeyStore;
    /** The key store's password; when unset, read from the environment variable named by tls-key-store-password-env. */
    private String tlsKeyStorePassword;
    /** Environment variable holding the key store password, read when tls-key-store-password is unset. */
    private String tlsKeyStorePasswordEnv = "LANEMQ_PROXY_KEYSTORE_PASSWORD";
    /** Serve without TLS (loopback development only). */
    private boolean plaintext;
    /** Properties file: application=token, one per line. Required. */
    private Path tokensFile;
    /** This instance's name in logs and Subscribed frames; default proxy-<pid>. */
    private String proxyId;
    /** Redeliver a delivery not acked within this time. */
    @DurationUnit(ChronoUnit.MILLIS)
    private Duration ackTimeout;
    /** Nack backoff without a delay: the first wait, doubling up to max-backoff. */
    @DurationUnit(ChronoUnit.MILLIS)
    private Duration initialBackoff;
    /** Nack backoff without a delay: the longest wait. */
    @DurationUnit(ChronoUnit.MILLIS)
    private Duration maxBackoff;
    /** Nack retry delays from this long wait in the group's retry topic on the broker (durable, no in-flight place taken). */
    @DurationUnit(ChronoUnit.MILLIS)
    private Duration brokerRetryFrom;
    /** On shutdown, wait this long for outstanding acks before moving the unacked to the retry topic and committing. */
    @DurationUnit(ChronoUnit.MILLIS)
    private Duration drainTimeout;
    /** Stop consuming a group that has had no consumer this long. */
    @DurationUnit(ChronoUnit.MILLIS)
    private Duration idleGroupTimeout;
    /** Offset commit interval. */
    @DurationUnit(ChronoUnit.MILLIS)
    private Duration commitInterval;
    /** Per group: messages held at most (where the platform configuration sets none). */
    private int maxInFlight = GroupLimits.DEFAULTS.maxInFlight();
    /** Per group: messages fetched per second, 0 unlimited (where the platform configuration sets none). */
    private int maxPerSecond = GroupLimits.DEFAULTS.maxPerSecond();
    /** Per-group overrides: group-limits.<group>.max-in-flight / .max-per-second; an unset one takes the default above. */
    private Map<String, Limits> groupLimits = new LinkedHashMap<>();
    /** The gRPC server's limits (grpc.max-connections, grpc.handshake-timeout, ...); unset ones keep the defaults. */
    private Grpc grpc = new Grpc();

    /** The validated operations address; throws {@link InvalidProxyPropertyException} naming the property. */
    public InetSocketAddress httpSocketAddress() {
        return checked("http-address", () -> HttpAddress.parse("the address", httpAddress));
    }

    /** The validated grace period, longer than the drain it bounds; throws naming the property. */
    public Duration validShutdownGrace() {
        Duration grace = checked("shutdown-grace", () -> GracefulShutdown.requireGrace(shutdownGrace));
        Duration drain = orDefault(drainTimeout, ProxyServerOptions.DEFAULT_DRAIN_TIMEOUT);
        if (grace.compareTo(drain) <= 0) {
            throw new InvalidProxyPropertyException(PREFIX + "shutdown-grace",
                    "must be longer than " + PREFIX + "drain-timeout (" + drain + "), was " + grace);
        }
        return grace;
    }

    /** The validated readiness delay; throws naming the property. */
    public Duration validReadinessDelay() {
        return checked("readiness-delay", () -> GracefulShutdown.requireReadinessDelay(readinessDelay));
    }

    /** The validated settings; throws {@link InvalidProxyPropertyException} naming the first bad property. */
    public ProxyServerOptions toProxyConfig() {
        ProxyServerOptions.Builder builder = checked("config-location", () -> ProxyServerOptions.builder(required("config-location", configLocation)));
        ifSet("listen", listen, value -> builder.grpcAddress(address(value)));
        ifSet("ack-timeout", ackTimeout, builder::ackTimeout);
        if (initialBackoff != null || maxBackoff != null) {
            Duration initial = orDefault(initialBackoff, ProxyServerOptions.DEFAULT_INITIAL_BACKOFF);
            Duration max = orDefault(maxBackoff, ProxyServerOptions.DEFAULT_MAX_BACKOFF);
            if (max.compareTo(initial) < 0) {
                throw new InvalidProxyPropertyException(PREFIX + "max-backoff",
                        "must not be below " + PREFIX + "initial-backoff (" + initial + "), was " + max);
            }
            checked("initial-backoff", () -> builder.backoff(initial, max));
        }
        ifSet("broker-retry-from", brokerRetryFrom, builder::brokerRetryFrom);
        ifSet("drain-timeout", drainTimeout, builder::drainTimeout);
        ifSet("idle-group-timeout", idleGroupTimeout, builder::idleGroupTimeout);
        ifSet("commit-interval", commitInterval, builder::commitInterval);
        checked("max-in-flight", () -> builder.defaultLimits(new GroupLimits(maxInFlight, maxPerSecond)));
        groupLimits.forEach((group, limits) -> checked("group-limits." + group, () -> builder.groupLimits(group,
                new GroupLimits(limits.maxInFlight == null ? maxInFlight : limits.maxInFlight,
                        limits.maxPerSecond == null ? maxPerSecond : limits.maxPerSecond))));
        ifSet("proxy-id", proxyId, builder::proxyId);
        if (tlsKeyStore != null) {
            checked("tls-key-store", () -> builder.tls(tlsKeyStore, keyStorePassword()));
        } else if (plaintext) {
            builder.allowPlaintext();
        } else {
            throw new InvalidProxyPropertyException(PREFIX + "tls-key-store",
                    "is required (a PKCS12 key store); " + PREFIX + "plaintext=true only for loopback development");
        }
        builder.serverLimits(grpc.toLimits());
        checkedRun("tokens-file", () -> readTokens(required("tokens-file", tokensFile)).forEach(builder::token));
        return checked("tokens-file", builder::build);
    }

    private char[] keyStorePassword() {
        String password = tlsKeyStorePassword != null ? tlsKeyStorePassword : System.getenv(tlsKeyStorePasswordEnv);
        return password == null ? new char[0] : password.toCharArray();
    }

    private static Map<String, String> readTokens(Path file) {
        Properties tokens = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            tokens.load(in);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the tokens file " + file + ": " + e, e);
        }
        Map<String, String> byApplication = new LinkedHashMap<>();
        tokens.stringPropertyNames().forEach(application -> byApplication.put(application, tokens.getProperty(application).strip()));
        return byApplication;
    }

    private static InetSocketAddress address(String hostPort) {
        int colon = hostPort == null ? -1 : hostPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("takes host:port, got '" + hostPort + "'");
        }
        try {
            return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("takes host:port, got '" + hostPort + "': " + e.getMessage(), e);
        }
    }

    /** Hands a property given to the builder step that validates it; an unset one keeps the builder's default. */
    private static <T> void ifSet(String property, T value, Consumer<T> step) {
        if (value != null) {
            checkedRun(property, () -> step.accept(value));
        }
    }

    private static <T> T orDefault(T value, T fallback) {
        return value != null ? value : fallback;
    }

    private static <T> T required(String property, T value) {
        if (value == null || value.toString().isBlank()) {
            throw new IllegalArgumentException("is required");
        }
        return value;
    }

    /** Runs one builder step; its {@link IllegalArgumentException} becomes one naming {@code property}. */
    private static <T> T checked(String property, Supplier<T> step) {
        try {
            return step.get();
        } catch (IllegalArgumentException e) {
            throw new InvalidProxyPropertyException(PREFIX + property, e.getMessage(), e);
        }
    }

    private static void checkedRun(String property, Runnable step) {
        checked(property, () -> {
            step.run();
            return null;
        });
    }

    /**
     * {@code lanemq.proxy.grpc.*}: the gRPC server's {@link GrpcServerLimits} (defaults and their reasons there and in
     * the README); null keeps the default.
     */
    public static class Grpc {
        @DurationUnit(ChronoUnit.MILLIS)
        private Duration handshakeTimeout;
        private Integer maxConnections;
        private Integer maxConcurrentCallsPerConnection;
        @DurationUnit(ChronoUnit.MILLIS)
        private Duration keepAliveTime;
        @DurationUnit(ChronoUnit.MILLIS)
        private Duration keepAliveTimeout;
        @DurationUnit(ChronoUnit.MILLIS)
        private Duration permitKeepAliveTime;
        @DurationUnit(ChronoUnit.MILLIS)
        private Duration maxConnectionIdle;
        private Integer maxInboundMetadataSize;

        GrpcServerLimits toLimits() {
            GrpcServerLimits defaults = GrpcServerLimits.DEFAULTS;
            GrpcServerLimits.Builder b = defaults.toBuilder();
            if (handshakeTimeout != null) {
                checked("grpc.handshake-timeout", () -> b.handshakeTimeout(handshakeTimeout));
            }
            if (maxConnections != null) {
                checked("grpc.max-connections", () -> b.maxConnections(maxConnections));
            }
            if (maxConcurrentCallsPerConnection != null) {
                checked("grpc.max-concurrent-calls-per-connection", () -> b.maxConcurrentCallsPerConnection(maxConcurrentCallsPerConnection));
            }
            if (keepAliveTime != null || keepAliveTimeout != null) {
                checked(keepAliveTime != null ? "grpc.keep-alive-time" : "grpc.keep-alive-timeout", () -> b.keepAlive(
                        keepAliveTime != null ? keepAliveTime : defaults.keepAliveTime(),
                        keepAliveTimeout != null ? keepAliveTimeout : defaults.keepAliveTimeout()));
            }
            if (permitKeepAliveTime != null) {
                checked("grpc.permit-keep-alive-time", () -> b.permitKeepAliveTime(permitKeepAliveTime));
            }
            if (maxConnectionIdle != null) {
                checked("grpc.max-connection-idle", () -> b.maxConnectionIdle(maxConnectionIdle));
            }
            if (maxInboundMetadataSize != null) {
                checked("grpc.max-inbound-metadata-size", () -> b.maxInboundMetadataSize(maxInboundMetadataSize));
            }
            return b.build();
        }

        public Duration getHandshakeTimeout() {
            return handshakeTimeout;
        }

        public void setHandshakeTimeout(Duration handshakeTimeout) {
            this.handshakeTimeout = handshakeTimeout;
        }

        public Integer getMaxConnections() {
            return maxConnections;
        }

        public void setMaxConnections(Integer maxConnections) {
            this.maxConnections = maxConnections;
        }

        public Integer getMaxConcurrentCallsPerConnection() {
            return maxConcurrentCallsPerConnection;
        }

        public void setMaxConcurrentCallsPerConnection(Integer maxConcurrentCallsPerConnection) {
            this.maxConcurrentCallsPerConnection = maxConcurrentCallsPerConnection;
        }

        public Duration getKeepAliveTime() {
            return keepAliveTime;
        }

        public void setKeepAliveTime(Duration keepAliveTime) {
            this.keepAliveTime = keepAliveTime;
        }

        public Duration getKeepAliveTimeout() {
            return keepAliveTimeout;
        }

        public void setKeepAliveTimeout(Duration keepAliveTimeout) {
            this.keepAliveTimeout = keepAliveTimeout;
        }

        public Duration getPermitKeepAliveTime() {
            return permitKeepAliveTime;
        }

        public void setPermitKeepAliveTime(Duration permitKeepAliveTime) {
            this.permitKeepAliveTime = permitKeepAliveTime;
        }

        public Duration getMaxConnectionIdle() {
            return maxConnectionIdle;
        }

        public void setMaxConnectionIdle(Duration maxConnectionIdle) {
            this.maxConnectionIdle = maxConnectionIdle;
        }

        public Integer getMaxInboundMetadataSize() {
            return maxInboundMetadataSize;
        }

        public void setMaxInboundMetadataSize(Integer maxInboundMetadataSize) {
            this.maxInboundMetadataSize = maxInboundMetadataSize;
        }
    }

    /** {@code lanemq.proxy.group-limits.<group>.*}; null: the proxy-wide value. */
    public static class Limits {
        private Integer maxInFlight;
        private Integer maxPerSecond;

        public Integer getMaxInFlight() {
            return maxInFlight;
        }

        public void setMaxInFlight(Integer maxInFlight) {
            this.maxInFlight = maxInFlight;
        }

        public Integer getMaxPerSecond() {
            return maxPerSecond;
        }

        public void setMaxPerSecond(Integer maxPerSecond) {
            this.maxPerSecond = maxPerSecond;
        }
    }

    public String getConfigLocation() {
        return configLocation;
    }

    public void setConfigLocation(String configLocation) {
        this.configLocation = configLocation;
    }

    public String getListen() {
        return listen;
    }

    public void setListen(String listen) {
        this.listen = listen;
    }

    public Path getTlsKeyStore() {
        return tlsKeyStore;
    }

    public void setTlsKeyStore(Path tlsKeyStore) {
        this.tlsKeyStore = tlsKeyStore;
    }

    public String getTlsKeyStorePassword() {
        return tlsKeyStorePassword;
    }

    public void setTlsKeyStorePassword(String tlsKeyStorePassword) {
        this.tlsKeyStorePassword = tlsKeyStorePassword;
    }

    public String getTlsKeyStorePasswordEnv() {
        return tlsKeyStorePasswordEnv;
    }

    public void setTlsKeyStorePasswordEnv(String tlsKeyStorePasswordEnv) {
        this.tlsKeyStorePasswordEnv = tlsKeyStorePasswordEnv;
    }

    public boolean isPlaintext() {
        return plaintext;
    }

    public void setPlaintext(boolean plaintext) {
        this.plaintext = plaintext;
    }

    public Path getTokensFile() {
        return tokensFile;
    }

    public void setTokensFile(Path tokensFile) {
        this.tokensFile = tokensFile;
    }

    public String getProxyId() {
        return proxyId;
    }

    public void setProxyId(String proxyId) {
        this.proxyId = proxyId;
    }

    public Duration getAckTimeout() {
        return ackTimeout;
    }

    public void setAckTimeout(Duration ackTimeout) {
        this.ackTimeout = ackTimeout;
    }

    public Duration getInitialBackoff() {
        return initialBackoff;
    }

    public void setInitialBackoff(Duration initialBackoff) {
        this.initialBackoff = initialBackoff;
    }

    public Duration getBrokerRetryFrom() {
        return brokerRetryFrom;
    }

    public void setBrokerRetryFrom(Duration brokerRetryFrom) {
        this.brokerRetryFrom = brokerRetryFrom;
    }

    public Duration getMaxBackoff() {
        return maxBackoff;
    }

    public void setMaxBackoff(Duration maxBackoff) {
        this.maxBackoff = maxBackoff;
    }

    public String getHttpAddress() {
        return httpAddress;
    }

    public void setHttpAddress(String httpAddress) {
        this.httpAddress = httpAddress;
    }

    public Duration getShutdownGrace() {
        return shutdownGrace;
    }

    public void setShutdownGrace(Duration shutdownGrace) {
        this.shutdownGrace = shutdownGrace;
    }

    public Duration getReadinessDelay() {
        return readinessDelay;
    }

    public void setReadinessDelay(Duration readinessDelay) {
        this.readinessDelay = readinessDelay;
    }

    public Duration getDrainTimeout() {
        return drainTimeout;
    }

    public void setDrainTimeout(Duration drainTimeout) {
        this.drainTimeout = drainTimeout;
    }

    public Duration getIdleGroupTimeout() {
        return idleGroupTimeout;
    }

    public void setIdleGroupTimeout(Duration idleGroupTimeout) {
        this.idleGroupTimeout = idleGroupTimeout;
    }

    public Duration getCommitInterval() {
        return commitInterval;
    }

    public void setCommitInterval(Duration commitInterval) {
        this.commitInterval = commitInterval;
    }

    public int getMaxInFlight() {
        return maxInFlight;
    }

    public void setMaxInFlight(int maxInFlight) {
        this.maxInFlight = maxInFlight;
    }

    public int getMaxPerSecond() {
        return maxPerSecond;
    }

    public void setMaxPerSecond(int maxPerSecond) {
        this.maxPerSecond = maxPerSecond;
    }

    public Map<String, Limits> getGroupLimits() {
        return groupLimits;
    }

    public void setGroupLimits(Map<String, Limits> groupLimits) {
        this.groupLimits = groupLimits;
    }

    public Grpc getGrpc() {
        return grpc;
    }

    public void setGrpc(Grpc grpc) {
        this.grpc = grpc;
    }
}
