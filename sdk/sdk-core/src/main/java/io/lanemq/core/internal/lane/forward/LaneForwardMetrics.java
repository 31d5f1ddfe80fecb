package io.lanemq.core.internal.lane.forward;

import io.lanemq.api.ConsumeResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The lane forwarding meters, named in one place. Server side: what it answered and what it refused;
 * client side: every call by outcome, timed.
 */
public final class LaneForwardMetrics {
    /** Forwarded messages the server's handler processed, by {@code group} and {@code result}; counter. */
    public static final String SERVED = "lanemq.lane.forward.served";
    /** Connections and calls the server refused, by {@code reason}; counter. */
    public static final String REJECTED = "lanemq.lane.forward.rejected";
    /** Forwards this instance made, by {@code group} and {@code outcome}; timer. */
    public static final String CALLS = "lanemq.lane.forward.calls";

    public static final String TAG_GROUP = "group";
    /** {@code success}, {@code retry_later} or {@code dead_letter}. */
    public static final String TAG_RESULT = "result";
    /** {@code success}, {@code retry_later}, {@code dead_letter}, or the gRPC status in lower case ({@code unavailable}...). */
    public static final String TAG_OUTCOME = "outcome";
    public static final String TAG_REASON = "reason";

    /** A connection that ended before TLS and HTTP/2 were up: plaintext, garbage, a refused certificate. */
    public static final String REASON_HANDSHAKE = "handshake";
    /** A connection closed on accept: the server already had {@code GrpcServerLimits.maxConnections} open. */
    public static final String REASON_CONNECTION_CAP = "connection_cap";
    /** An authenticated call whose request is over {@code maxMessageBytes}. */
    public static final String REASON_TOO_LARGE = "too_large";
    public static final String REASON_UNAUTHENTICATED = "unauthenticated";
    /** An authenticated call whose bytes are not a {@code ForwardRequest}. */
    public static final String REASON_MALFORMED = "malformed";
    public static final String REASON_UNKNOWN_GROUP = "unknown_group";
    public static final String REASON_BUSY = "resource_exhausted";
    /** The caller gave up (deadline, cancel) before a thread took the message: the handler was not called. */
    public static final String REASON_CANCELLED = "cancelled";

    private final MeterRegistry registry;

    LaneForwardMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void served(String group, ConsumeResult result) {
        registry.counter(SERVED, TAG_GROUP, group, TAG_RESULT, lowerCase(result.name())).increment();
    }

    Counter rejected(String reason) {
        return registry.counter(REJECTED, TAG_REASON, reason);
    }

    void called(String group, String outcome, long nanos) {
        Timer.builder(CALLS).tags(TAG_GROUP, group, TAG_OUTCOME, outcome).register(registry)
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    static String lowerCase(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
