package io.lanemq.grpc.server;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Ends a call whose request is over the message limit with {@code RESOURCE_EXHAUSTED} naming the limit, unparsed,
 * and one whose bytes are not the expected message with {@code INVALID_ARGUMENT}, instead of gRPC's bare
 * {@code CANCELLED}/{@code INTERNAL} and a stack trace in the log. Only that call ends; the connection stays.
 *
 * <p>Works on a service whose requests stay serialized until the call's own listener parses them
 * ({@code ServerInterceptors.useInputStreamMessages}), so the size is known before parsing and the parse error
 * surfaces here. A call's handler that holds something to give back when its call ends this way registers it
 * under {@link #ON_REFUSED}. Put it after the token check in the interceptor list, so it runs for authenticated
 * calls only.
 */
public final class MalformedMessageGuard implements ServerInterceptor {
    /** Set by a call's handler: what to run when the guard ends its call. */
    public static final Context.Key<AtomicReference<Runnable>> ON_REFUSED = Context.key("lanemq-on-refused");

    private final String messageName;
    private final int maxMessageBytes;
    private final CallRefusals refusals;

    /**
     * @param messageName     the request type, as the refusals name it ({@code ConsumeRequest})
     * @param maxMessageBytes the largest request let through ({@link GrpcServerLimits#maxFrameBytes(int)})
     */
    public MalformedMessageGuard(String messageName, int maxMessageBytes, CallRefusals refusals) {
        this.messageName = Objects.requireNonNull(messageName, "messageName");
        this.maxMessageBytes = maxMessageBytes;
        this.refusals = Objects.requireNonNull(refusals, "refusals");
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        AtomicReference<Runnable> hook = new AtomicReference<>();
        ServerCall.Listener<Q> delegate = Contexts.interceptCall(Context.current().withValue(ON_REFUSED, hook), call,
                headers, next);
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(delegate) {
            private boolean refused;

            @Override
            public void onMessage(Q message) {
                if (refused) {
                    return;
                }
                int bytes = GrpcServerTransport.serializedSize(message);
                if (bytes > maxMessageBytes) {
                    refuse(Status.RESOURCE_EXHAUSTED.withDescription(messageName + " of " + bytes
                            + " bytes is over the limit of " + maxMessageBytes
                            + " bytes (producer.maxBodyBytes plus framing room)"), "a request of " + bytes + " bytes");
                    return;
                }
                try {
                    super.onMessage(message);
                } catch (RuntimeException e) {
                    String reason = Status.fromThrowable(e).getDescription();
                    refuse(Status.INVALID_ARGUMENT.withDescription("not a " + messageName + ": " + reason),
                            "not a " + messageName + ": " + CallRefusals.printable(String.valueOf(reason)));
                }
            }

            @Override
            public void onHalfClose() {
                if (!refused) {
                    super.onHalfClose();
                }
            }

            private void refuse(Status status, String why) {
                refused = true;
                Runnable onRefused = hook.get();
                if (onRefused != null) {
                    onRefused.run();
                }
                refusals.refuse(call, status, why);
            }
        };
    }
}
