package io.lanemq.core.internal.lane.forward;

import io.grpc.Status;

/**
 * A forward that did not get an answer from the target's listener: the message was not (or not
 * provably) consumed there, so the caller must not acknowledge it. {@link #code()} says why:
 * {@code UNAVAILABLE} (target unreachable or stopping, or its certificate refused), {@code DEADLINE_EXCEEDED},
 * {@code NOT_FOUND} (the target does not consume the group), {@code UNAUTHENTICATED} (tokens differ),
 * {@code RESOURCE_EXHAUSTED} (the target's listener threads are all busy, or the message is larger than it
 * accepts, which may also come as {@code CANCELLED}).
 */
public final class LaneForwardException extends Exception {
    private final Status.Code code;

    public LaneForwardException(Status.Code code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    /**
     * The target answered that it cannot take the message now (every listener thread busy, or the message larger
     * than it accepts): the target is alive, so it is no reason to leave it out.
     */
    public boolean busy() {
        return code == Status.Code.RESOURCE_EXHAUSTED;
    }

    /** The gRPC status the call ended with. */
    public Status.Code code() {
        return code;
    }
}
