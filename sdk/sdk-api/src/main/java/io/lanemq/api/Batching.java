package io.lanemq.api;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link BatchMessageListener} gets its batches: at most {@code maxMessages} messages, gathered for at most
 * {@code maxWait} after the first one arrived (a batch also leaves as soon as it is full). Immutable.
 *
 * <pre>{@code
 * Batching batching = Batching.of(32, Duration.ofMillis(50));
 * }</pre>
 */
public final class Batching {
    /** Above this a batch holds more messages than a consumer's listener threads normally are. */
    public static final int MAX_MESSAGES = 1_024;
    /** Above this a message waits longer for its batch than a delivery's acknowledgement may take. */
    public static final Duration MAX_WAIT = Duration.ofSeconds(5);

    private final int maxMessages;
    private final Duration maxWait;

    private Batching(int maxMessages, Duration maxWait) {
        this.maxMessages = maxMessages;
        this.maxWait = maxWait;
    }

    /**
     * @param maxMessages 1 to {@value #MAX_MESSAGES}
     * @param maxWait     more than zero, at most {@link #MAX_WAIT}
     */
    public static Batching of(int maxMessages, Duration maxWait) {
        if (maxMessages < 1 || maxMessages > MAX_MESSAGES) {
            throw new IllegalArgumentException("Batching.maxMessages must be 1.." + MAX_MESSAGES + ", was " + maxMessages);
        }
        Objects.requireNonNull(maxWait, "Batching.maxWait");
        if (maxWait.isNegative() || maxWait.isZero() || maxWait.compareTo(MAX_WAIT) > 0) {
            throw new IllegalArgumentException("Batching.maxWait must be more than 0 and at most " + MAX_WAIT + ", was "
                    + maxWait);
        }
        return new Batching(maxMessages, maxWait);
    }

    public int maxMessages() {
        return maxMessages;
    }

    public Duration maxWait() {
        return maxWait;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Batching that && maxMessages == that.maxMessages && maxWait.equals(that.maxWait);
    }

    @Override
    public int hashCode() {
        return Objects.hash(maxMessages, maxWait);
    }

    @Override
    public String toString() {
        return "Batching[maxMessages=" + maxMessages + ", maxWait=" + maxWait + "]";
    }
}
