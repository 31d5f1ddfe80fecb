package io.lanemq.core.internal.lane.forward;

import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.lanemq.proxy.protocol.ProxyHeaders;
import io.lanemq.support.LogThrottle;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets a call through only with {@code authorization: Bearer <token>} naming the one token of the
 * deployment; any other is closed with {@code UNAUTHENTICATED} before its request is read.
 *
 * <p>Not the consumer proxy's {@code TokenAuthInterceptor}: that one authenticates many applications,
 * each by name and token, and counts in the proxy's meters. Only the header and its prefix are shared
 * ({@link ProxyHeaders}).
 */
final class BearerTokenInterceptor implements ServerInterceptor {
    private static final Logger log = LoggerFactory.getLogger(BearerTokenInterceptor.class);

    private final byte[] token;
    private final LaneForwardMetrics metrics;
    /** Shared by the server's refusals, one line a minute per reason. */
    private final LogThrottle throttle;

    BearerTokenInterceptor(String token, LaneForwardMetrics metrics, LogThrottle throttle) {
        this.token = token.getBytes(StandardCharsets.US_ASCII);
        this.metrics = metrics;
        this.throttle = throttle;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        String authorization = headers.get(ProxyHeaders.AUTHORIZATION);
        if (authentic(authorization)) {
            return next.startCall(call, headers);
        }
        metrics.rejected(LaneForwardMetrics.REASON_UNAUTHENTICATED).increment();
        long count = throttle.event(LaneForwardMetrics.REASON_UNAUTHENTICATED);
        if (count > 0) {
            SocketAddress peer = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
            log.warn("lane forward: refused a call from {} with {} token ({} refused since the last such line; metric {}{reason={}})",
                    peer, authorization == null ? "no" : "a wrong", count, LaneForwardMetrics.REJECTED,
                    LaneForwardMetrics.REASON_UNAUTHENTICATED);
        }
        call.close(Status.UNAUTHENTICATED.withDescription("missing or invalid lane forwarding token"), new Metadata());
        return new ServerCall.Listener<>() {
        };
    }

    private boolean authentic(String authorization) {
        if (authorization == null || !authorization.startsWith(ProxyHeaders.BEARER_PREFIX)) {
            return false;
        }
        byte[] given = authorization.substring(ProxyHeaders.BEARER_PREFIX.length()).getBytes(StandardCharsets.US_ASCII);
        // Constant time, so response timing tells nothing about how much of a guess was right.
        return MessageDigest.isEqual(token, given);
    }
}
