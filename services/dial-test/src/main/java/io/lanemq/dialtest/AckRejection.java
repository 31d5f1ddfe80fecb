package io.lanemq.dialtest;

import java.util.Locale;

/** Why the ack listener dropped input: the {@code reason} tag of the rejected-frames metric. */
public enum AckRejection {
    /** A length prefix above the maximum frame size: the connection is closed (no way to resynchronize). */
    OVERSIZE,
    /** The connection ended inside a frame. */
    TRUNCATED,
    /** The HMAC did not match: wrong secret, tampering or garbage. The connection is closed. */
    BAD_MAC,
    /** An authentic frame of a wrong shape: bad magic, unknown version, type or kind, too short a length. */
    MALFORMED,
    /** An authentic frame for another run of the dial test (an earlier process, or a stranger on the port). */
    UNKNOWN_RUN,
    /** An authentic frame for a sequence this run does not know (never tracked, or forgotten after retention). */
    UNKNOWN_PROBE,
    /** More connections than the listener serves at once: the new one is closed at once. */
    CONNECTION_LIMIT,
    /** A connection that sent nothing for the idle timeout: closed. */
    IDLE_TIMEOUT;

    private final String label = name().toLowerCase(Locale.ROOT);

    /** The metric tag value, e.g. {@code bad_mac}. */
    public String label() {
        return label;
    }
}
