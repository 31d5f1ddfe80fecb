package io.lanemq.localstack;

/**
 * One send as a {@link SendLog} saw it: when it started (nanos since the log began), when it ended (-1 while it
 * is still in flight), where it landed and whether it was acknowledged.
 */
public record SendOutcome(long startNanos, long endNanos, String cluster, String messageId, State state) {
    /** Where a send stands. */
    public enum State {
        /** Started, no answer yet. */
        IN_FLIGHT,
        ACKNOWLEDGED,
        FAILED
    }

    public boolean acknowledged() {
        return state == State.ACKNOWLEDGED;
    }

    public boolean inFlight() {
        return state == State.IN_FLIGHT;
    }

    /** How long the send took, or has taken so far at {@code nowNanos} while it is in flight. */
    public long elapsedNanos(long nowNanos) {
        return (endNanos < 0 ? nowNanos : endNanos) - startNanos;
    }
}
