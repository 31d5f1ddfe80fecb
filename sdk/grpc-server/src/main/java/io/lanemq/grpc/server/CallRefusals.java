package io.lanemq.grpc.server;

import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.Status;
import io.lanemq.support.LogThrottle;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a LaneMQ gRPC server ends a call it refuses: the server's own meter counts it (by status code), one log line a
 * minute per code says why with the count since the last line, and the call is closed with the status. Anyone can
 * cause a refusal, so the line is throttled and what the caller sent is cut and stripped of control characters.
 *
 * <p>Thread-safe.
 */
public final class CallRefusals {
    private static final Logger log = LoggerFactory.getLogger(CallRefusals.class);

    private final String server;
    private final LogThrottle throttle;
    private final Consumer<Status.Code> count;

    /**
     * @param server   what the log line calls this server
     * @param throttle the server's log throttle, shared with its other refusals
     * @param count    counts one refusal of that code in the server's meters
     */
    public CallRefusals(String server, LogThrottle throttle, Consumer<Status.Code> count) {
        this.server = Objects.requireNonNull(server, "server");
        this.throttle = Objects.requireNonNull(throttle, "throttle");
        this.count = Objects.requireNonNull(count, "count");
    }

    /** Counts, logs (throttled) and closes {@code call} with {@code status}; {@code why} goes to the log only. */
    public void refuse(ServerCall<?, ?> call, Status status, String why) {
        count.accept(status.getCode());
        long since = throttle.event(server + "/" + status.getCode());
        if (since > 0) {
            log.warn("{}: refused a call to {} from {} with {}: {} ({} such since the last line)", server,
                    call.getMethodDescriptor().getFullMethodName(), call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR),
                    status.getCode(), why, since);
        }
        call.close(status, new Metadata());
    }

    /** At most 64 characters, printable ASCII only: a header cannot forge log lines or fill them. */
    public static String printable(String untrusted) {
        StringBuilder out = new StringBuilder(Math.min(untrusted.length(), 64) + 3);
        for (int i = 0; i < untrusted.length() && out.length() < 64; i++) {
            char c = untrusted.charAt(i);
            out.append(c >= ' ' && c <= '~' ? c : '?');
        }
        return untrusted.length() > 64 ? out + "..." : out.toString();
    }
}
