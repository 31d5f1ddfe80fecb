package io.lanemq.core.internal.lane.forward;

import io.grpc.Attributes;
import io.grpc.Grpc;
import io.grpc.ServerTransportFilter;
import io.lanemq.support.LogThrottle;
import java.net.InetSocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts and logs connections that ended before they became gRPC transports: a plaintext client, garbage
 * bytes, a TLS client that refused our certificate, a port scanner, a connection that sent nothing for the
 * handshake timeout. gRPC itself keeps these quiet (its
 * own log is at debug level) and drops the connection, which is right; this makes them visible. A
 * transport becomes ready once TLS is up and the client's HTTP/2 preface arrived, so one that ends with
 * no ready attributes failed on the way. Logged through a {@link LogThrottle}; the metric counts each.
 */
final class FailedConnections extends ServerTransportFilter {
    private static final Logger log = LoggerFactory.getLogger(FailedConnections.class);

    /** The server's bound address, once bound: connections only fail after that. */
    private volatile String server = "(binding)";
    private final LaneForwardMetrics metrics;
    /** Shared by the server's refusals, one line a minute per reason. */
    private final LogThrottle throttle;

    FailedConnections(LaneForwardMetrics metrics, LogThrottle throttle) {
        this.metrics = metrics;
        this.throttle = throttle;
    }

    void boundTo(InetSocketAddress address) {
        this.server = String.valueOf(address);
    }

    @Override
    public void transportTerminated(Attributes ready) {
        if (ready != null && ready.get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR) != null) {
            return;
        }
        metrics.rejected(LaneForwardMetrics.REASON_HANDSHAKE).increment();
        long count = throttle.event(LaneForwardMetrics.REASON_HANDSHAKE);
        if (count > 0) {
            log.warn("lane forward server {}: {} connection(s) ended before TLS and HTTP/2 were established "
                    + "(a plaintext client, bytes that are not TLS, or a client that refused the certificate); "
                    + "metric {}{reason={}}", server, count, LaneForwardMetrics.REJECTED, LaneForwardMetrics.REASON_HANDSHAKE);
        }
    }
}
