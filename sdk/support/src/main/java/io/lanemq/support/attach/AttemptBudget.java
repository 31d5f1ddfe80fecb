package io.lanemq.support.attach;

import io.lanemq.support.Ticker;

/**
 * How many attach attempts one process makes per second at most, over all its clusters and consumers, so that many of
 * them retrying at once do not hammer a cluster that has just come back: a token bucket of
 * {@link AttachPolicy#attemptsPerSecond()} tokens, refilled at that rate on the injected ticker. Thread-safe.
 *
 * <p>Hand-written because resilience4j's rate limiter reads the system clock and cannot be stepped by a test, and a
 * reservation ({@link #reserve()}) tells the caller how long to wait instead of blocking its thread.
 */
public final class AttemptBudget {
    private final int perSecond;
    private final Ticker ticker;
    /** Guarded by this: tokens left (negative when reserved ahead) as of {@link #refilledAt}. */
    private double tokens;
    private long refilledAt;

    public AttemptBudget(AttachPolicy policy, Ticker ticker) {
        this.perSecond = policy.attemptsPerSecond();
        this.ticker = ticker;
        this.tokens = perSecond;
        this.refilledAt = ticker.read();
    }

    /**
     * Reserves one attempt: 0 when it may start now, else the nanoseconds to wait before it starts (the slot is
     * reserved; the caller does not ask again).
     */
    public synchronized long reserve() {
        long now = ticker.read();
        tokens = Math.min(perSecond, tokens + (now - refilledAt) * perSecond / 1e9);
        refilledAt = now;
        tokens -= 1;
        return tokens >= 0 ? 0 : (long) Math.ceil(-tokens * 1e9 / perSecond);
    }
}
