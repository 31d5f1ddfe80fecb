package io.lanemq.core.internal.lane.forward;

import io.lanemq.config.ProducerConfig;
import io.lanemq.grpc.server.GrpcServerLimits;
import java.nio.file.Path;
import java.time.Duration;

/**
 * How a {@link LaneForwardServer} listens: the address, its TLS identity, the token callers must
 * present, and how many forwarded messages it processes at once. Validated on construction.
 *
 * <pre>{@code
 * ForwardServerOptions settings = ForwardServerOptions.builder(Path.of("/etc/lanemq/lane.crt"),
 *                 Path.of("/etc/lanemq/lane.key"), token)
 *         .host("10.0.0.7").port(7450).threads(8)
 *         .build();
 * }</pre>
 *
 * @param host             the address to bind ({@code 0.0.0.0} for every interface, {@code 127.0.0.1} for loopback only)
 * @param port             0..65535; 0 binds any free port ({@link LaneForwardServer#address()} tells which)
 * @param certificateChain PEM certificate chain the server presents, leaf first
 * @param privateKey       PEM PKCS#8 private key of the leaf certificate
 * @param token            the token every caller sends as {@code authorization: Bearer <token>}
 * @param threads          listener threads: forwarded messages processed at once
 * @param queueCapacity    forwarded messages that may wait for a thread; beyond, calls get {@code RESOURCE_EXHAUSTED}
 * @param shutdownGrace    how long {@link LaneForwardServer#close()} waits for messages in hand
 * @param maxMessageBytes  the largest forwarded message accepted (body, keys and properties); a larger one
 *                         is refused (the caller sees {@code RESOURCE_EXHAUSTED}, or {@code CANCELLED}
 *                         when gRPC reports the reset stream instead). At least the platform's
 *                         {@code producer.maxBodyBytes} plus room for properties:
 *                         {@link GrpcServerLimits#maxFrameBytes(int)} of it, which is how the SDK sets it.
 * @param limits           connections, calls, handshake, keepalive and idle limits of the gRPC server
 */
public record ForwardServerOptions(String host, int port, Path certificateChain, Path privateKey, String token,
                                    int threads, int queueCapacity, Duration shutdownGrace, int maxMessageBytes,
                                    GrpcServerLimits limits) {
    private static final String NAME = "ForwardServerOptions.";

    public ForwardServerOptions {
        if (SettingsChecks.required(host, NAME + "host").isBlank()) {
            throw new IllegalArgumentException(NAME + "host must not be blank");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(NAME + "port must be within 0..65535, was " + port);
        }
        SettingsChecks.required(certificateChain, NAME + "certificateChain");
        SettingsChecks.required(privateKey, NAME + "privateKey");
        SettingsChecks.token(token, NAME + "token");
        SettingsChecks.atLeast(threads, 1, NAME + "threads");
        SettingsChecks.atLeast(queueCapacity, 0, NAME + "queueCapacity");
        SettingsChecks.positive(shutdownGrace, NAME + "shutdownGrace");
        SettingsChecks.atLeast(maxMessageBytes, 1024, NAME + "maxMessageBytes");
        SettingsChecks.required(limits, NAME + "limits");
    }

    /**
     * Defaults: every interface, any free port, 4 threads, no queue, 10 s shutdown grace, messages up to the
     * platform's default body limit plus framing room, {@link GrpcServerLimits#DEFAULTS}.
     */
    public static Builder builder(Path certificateChain, Path privateKey, String token) {
        return new Builder(certificateChain, privateKey, token);
    }

    /** The token stays out of logs. */
    @Override
    public String toString() {
        return "ForwardServerOptions[host=" + host + ", port=" + port + ", certificateChain=" + certificateChain
                + ", privateKey=" + privateKey + ", token=***, threads=" + threads + ", queueCapacity=" + queueCapacity
                + ", shutdownGrace=" + shutdownGrace + ", maxMessageBytes=" + maxMessageBytes + ", limits=" + limits + "]";
    }

    public static final class Builder {
        private final Path certificateChain;
        private final Path privateKey;
        private final String token;
        private String host = "0.0.0.0";
        private int port;
        private int threads = 4;
        private int queueCapacity;
        private Duration shutdownGrace = Duration.ofSeconds(10);
        // gRPC's default is 4 MiB, the platform's default body limit alone: a message at that limit would not fit.
        private int maxMessageBytes = GrpcServerLimits.maxFrameBytes(ProducerConfig.DEFAULTS.maxBodyBytes());
        private GrpcServerLimits limits = GrpcServerLimits.DEFAULTS;

        private Builder(Path certificateChain, Path privateKey, String token) {
            this.certificateChain = certificateChain;
            this.privateKey = privateKey;
            this.token = token;
        }

        public Builder host(String host) {
            this.host = host;
            return this;
        }

        public Builder port(int port) {
            this.port = port;
            return this;
        }

        public Builder threads(int threads) {
            this.threads = threads;
            return this;
        }

        public Builder queueCapacity(int queueCapacity) {
            this.queueCapacity = queueCapacity;
            return this;
        }

        public Builder shutdownGrace(Duration shutdownGrace) {
            this.shutdownGrace = shutdownGrace;
            return this;
        }

        public Builder maxMessageBytes(int maxMessageBytes) {
            this.maxMessageBytes = maxMessageBytes;
            return this;
        }

        public Builder limits(GrpcServerLimits limits) {
            this.limits = limits;
            return this;
        }

        public ForwardServerOptions build() {
            return new ForwardServerOptions(host, port, certificateChain, privateKey, token, threads, queueCapacity,
                    shutdownGrace, maxMessageBytes, limits);
        }
    }
}
