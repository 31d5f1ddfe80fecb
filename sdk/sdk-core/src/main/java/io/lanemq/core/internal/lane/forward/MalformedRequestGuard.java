package io.lanemq.core.internal.lane.forward;

import io.grpc.ForwardingServerCallListener;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.lanemq.core.grpc.GrpcServerTransport;
import io.lanemq.support.LogThrottle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers a request whose bytes are not a {@code ForwardRequest} with {@code INVALID_ARGUMENT}, counted
 * and logged, instead of gRPC's bare {@code INTERNAL}. Works on a service whose requests stay serialized
 * until the call's own listener parses them ({@code ServerInterceptors.useInputStreamMessages}), so the
 * parse error surfaces here. A request over the message limit is refused here too, unparsed, with
 * {@code RESOURCE_EXHAUSTED} naming the limit. Only authenticated calls get this far.
 */
final class MalformedRequestGuard implements ServerInterceptor {
    private static final Logger log = LoggerFactory.getLogger(MalformedRequestGuard.class);

    private final LaneForwardMetrics metrics;
    /** Shared by the server's refusals, one line a minute per reason. */
    private final LogThrottle throttle;

    private final int maxMessageBytes;

    MalformedRequestGuard(LaneForwardMetrics metrics, LogThrottle throttle, int maxMessageBytes) {
        this.metrics = metrics;
        this.throttle = throttle;
        this.maxMessageBytes = maxMessageBytes;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(next.startCall(call, headers)) {
            private boolean refused;

            @Override
            public void onMessage(Q message) {
                if (refused) {
                    return;
                }
                int bytes = GrpcServerTransport.serializedSize(message);
                if (bytes > maxMessageBytes) {
                    refused = true;
                    metrics.rejected(LaneForwardMetrics.REASON_TOO_LARGE).increment();
                    long count = throttle.event(LaneForwardMetrics.REASON_TOO_LARGE);
                    if (count > 0) {
                        log.warn("lane forward: refused a request of {} bytes, over the limit of {}, from {} ({} since the "
                                + "last such line)", bytes, maxMessageBytes, call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR),
                                count);
                    }
                    call.close(Status.RESOURCE_EXHAUSTED.withDescription("ForwardRequest of " + bytes
                            + " bytes is over the limit of " + maxMessageBytes + " bytes (producer.maxBodyBytes plus framing room)"),
                            new Metadata());
                    return;
                }
                try {
                    super.onMessage(message);
                } catch (RuntimeException e) {
                    refused = true;
                    metrics.rejected(LaneForwardMetrics.REASON_MALFORMED).increment();
                    String reason = Status.fromThrowable(e).getDescription();
                    long count = throttle.event(LaneForwardMetrics.REASON_MALFORMED);
                    if (count > 0) {
                        log.warn("lane forward: refused a request that is not a ForwardRequest from {} ({}; {} since the "
                                + "last such line)", call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR), reason, count);
                    }
                    call.close(Status.INVALID_ARGUMENT.withDescription("not a ForwardRequest: " + reason), new Metadata());
                }
            }

            @Override
            public void onHalfClose() {
                if (!refused) {
                    super.onHalfClose();
                }
            }
        };
    }
}
