package io.lanemq.core.internal.consume.proxy;

import io.grpc.Status;
import io.lanemq.support.Backoff;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.DoubleSupplier;

/**
 * How long to wait before reopening a stream that ended, by why it ended: a broken stream or a
 * stopping proxy is retried soon (200 ms doubling to 10 s); a refusal that only a person can fix (wrong
 * token, unknown group) slowly (5 s doubling to 1 min), so a fixed token is picked up without a
 * restart and a wrong one does not hammer the proxy. Not thread-safe.
 */
final class StreamFailures {
    /** Statuses that retrying soon will not change. */
    private static final Set<Status.Code> REFUSALS = EnumSet.of(Status.Code.UNAUTHENTICATED, Status.Code.PERMISSION_DENIED,
            Status.Code.NOT_FOUND, Status.Code.INVALID_ARGUMENT);

    private final Backoff broken;
    private final Backoff refused;
    private int inARow;

    StreamFailures(DoubleSupplier random) {
        this.broken = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(10), random);
        this.refused = new Backoff(Duration.ofSeconds(5), Duration.ofMinutes(1), random);
    }

    static boolean isRefusal(Status status) {
        return REFUSALS.contains(status.getCode());
    }

    /** Counts one more failure in a row and returns the delay before the next attempt. */
    Duration failed(Status status) {
        inARow++;
        return (isRefusal(status) ? refused : broken).delay(inARow);
    }

    /** Failures since the last successful subscription. */
    int inARow() {
        return inARow;
    }

    /** A stream subscribed: the next failure starts from the shortest delay again. */
    void reset() {
        inARow = 0;
    }

    /** What an operator should check after a refusal. */
    static String remedy(Status.Code code, ProxyConsumerSpec spec) {
        return switch (code) {
            case UNAUTHENTICATED, PERMISSION_DENIED -> "check the application name '" + spec.application()
                    + "' and its token (ClientOptions.proxyToken) against the proxy's tokens";
            case NOT_FOUND -> "the proxy's platform configuration does not declare group '" + spec.group()
                    + "' on logic topic '" + spec.logicTopic() + "'";
            default -> "the proxy rejected the Subscribe frame";
        };
    }
}
