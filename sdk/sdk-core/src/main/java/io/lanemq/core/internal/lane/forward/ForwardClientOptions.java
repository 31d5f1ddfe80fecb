package io.lanemq.core.internal.lane.forward;

import io.lanemq.config.ProducerConfig;
import io.lanemq.grpc.server.GrpcServerLimits;
import java.nio.file.Path;
import java.time.Duration;

/**
 * How a {@link LaneForwardClient} calls other instances: the CA their certificates must chain to, the
 * token it presents, the deadline of each call, and how long an unused channel to a target is kept.
 * Validated on construction.
 *
 * <pre>{@code
 * ForwardClientOptions settings = ForwardClientOptions.builder(Path.of("/etc/lanemq/lane-ca.pem"), token)
 *         .callDeadline(Duration.ofSeconds(30))
 *         .build();
 * }</pre>
 *
 * @param trustedCa   PEM certificate(s) of the CA a target's certificate must chain to
 * @param token       sent as {@code authorization: Bearer <token>} on every call
 * @param callDeadline how long one forward may take, listener included
 * @param idleTimeout a channel to a target unused for this long is closed
 * @param maxMessageBytes the largest request sent; a larger one fails at once with {@code RESOURCE_EXHAUSTED}
 *                    naming its size and this limit, without a byte on the wire. The same value as the servers'
 *                    {@link ForwardServerOptions#maxMessageBytes()}, derived from {@code producer.maxBodyBytes}
 */
public record ForwardClientOptions(Path trustedCa, String token, Duration callDeadline, Duration idleTimeout,
                                   int maxMessageBytes) {
    private static final String NAME = "ForwardClientOptions.";

    public ForwardClientOptions {
        SettingsChecks.required(trustedCa, NAME + "trustedCa");
        SettingsChecks.token(token, NAME + "token");
        SettingsChecks.positive(callDeadline, NAME + "callDeadline");
        SettingsChecks.positive(idleTimeout, NAME + "idleTimeout");
        SettingsChecks.atLeast(maxMessageBytes, 1024, NAME + "maxMessageBytes");
    }

    /** Defaults: a 30 s call deadline, channels closed after 5 idle minutes. */
    public static Builder builder(Path trustedCa, String token) {
        return new Builder(trustedCa, token);
    }

    /** The token stays out of logs. */
    @Override
    public String toString() {
        return "ForwardClientOptions[trustedCa=" + trustedCa + ", token=***, callDeadline=" + callDeadline
                + ", idleTimeout=" + idleTimeout + ", maxMessageBytes=" + maxMessageBytes + "]";
    }

    public static final class Builder {
        private final Path trustedCa;
        private final String token;
        private Duration callDeadline = Duration.ofSeconds(30);
        private Duration idleTimeout = Duration.ofMinutes(5);
        private int maxMessageBytes = GrpcServerLimits.maxFrameBytes(ProducerConfig.DEFAULTS.maxBodyBytes());

        private Builder(Path trustedCa, String token) {
            this.trustedCa = trustedCa;
            this.token = token;
        }

        public Builder callDeadline(Duration callDeadline) {
            this.callDeadline = callDeadline;
            return this;
        }

        public Builder idleTimeout(Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
            return this;
        }

        public Builder maxMessageBytes(int maxMessageBytes) {
            this.maxMessageBytes = maxMessageBytes;
            return this;
        }

        public ForwardClientOptions build() {
            return new ForwardClientOptions(trustedCa, token, callDeadline, idleTimeout, maxMessageBytes);
        }
    }
}
