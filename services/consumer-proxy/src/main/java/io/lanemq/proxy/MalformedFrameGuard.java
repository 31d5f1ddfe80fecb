package io.lanemq.proxy;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.concurrent.atomic.AtomicReference;
import io.lanemq.core.grpc.GrpcServerTransport;
import io.lanemq.support.LogThrottle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a frame that is not a valid protobuf message into a clear {@code INVALID_ARGUMENT} for that
 * call alone. gRPC itself would cancel the call with no description and log a stack trace. Works on
 * a service whose requests stay serialized until this guard lets the parse happen
 * ({@code ServerInterceptors.useInputStreamMessages}), so the parse error surfaces here. The
 * stream's own session learns of the end through the hook it registers under {@link #ON_MALFORMED},
 * so what it held is redelivered.
 */
final class MalformedFrameGuard implements ServerInterceptor {
    private static final Logger log = LoggerFactory.getLogger(MalformedFrameGuard.class);

    /** Set by the stream's session: what to do when its call ends on a malformed frame. */
    static final Context.Key<AtomicReference<Runnable>> ON_MALFORMED = Context.key("lanemq-on-malformed");

    private final ProxyMetrics metrics;
    private final LogThrottle refusals;

    private final int maxFrameBytes;

    MalformedFrameGuard(ProxyMetrics metrics, LogThrottle refusals, int maxFrameBytes) {
        this.metrics = metrics;
        this.refusals = refusals;
        this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        AtomicReference<Runnable> hook = new AtomicReference<>();
        Context context = Context.current().withValue(ON_MALFORMED, hook);
        ServerCall.Listener<Q> delegate = Contexts.interceptCall(context, call, headers, next);
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(delegate) {
            private boolean closed;

            @Override
            public void onMessage(Q message) {
                if (closed) {
                    return;
                }
                int bytes = GrpcServerTransport.serializedSize(message);
                if (bytes > maxFrameBytes) {
                    closed = true;
                    metrics.refusedCalls(Status.Code.RESOURCE_EXHAUSTED.name()).increment();
                    refusals.warn(log, "too-large", "ending a stream on a frame of {} bytes, over the limit of {}", bytes,
                            maxFrameBytes);
                    Runnable onRefused = hook.get();
                    if (onRefused != null) {
                        onRefused.run();
                    }
                    call.close(Status.RESOURCE_EXHAUSTED.withDescription("frame of " + bytes + " bytes is over the limit of "
                            + maxFrameBytes + " bytes (producer.maxBodyBytes plus framing room)"), new Metadata());
                    return;
                }
                try {
                    super.onMessage(message);
                } catch (RuntimeException e) {
                    closed = true;
                    metrics.refusedCalls(Status.Code.INVALID_ARGUMENT.name()).increment();
                    refusals.warn(log, "malformed", "ending a stream on a malformed frame: {}",
                            TokenAuthInterceptor.printable(e.toString()));
                    Runnable onMalformed = hook.get();
                    if (onMalformed != null) {
                        onMalformed.run();
                    }
                    call.close(Status.INVALID_ARGUMENT.withDescription("malformed frame, not a ConsumeRequest: "
                            + Status.fromThrowable(e).getDescription()), new Metadata());
                }
            }
        };
    }
}
