package io.lanemq.failover;

import io.lanemq.support.Ticker;

/**
 * Keeps a limited callee (slow, or just revived by a probe, see {@link Callee#isLimited()}) to a trickle of calls
 * counted in absolute terms: one call at a time, at most one per interval, while a healthier peer can take the
 * pick.
 *
 * <p>Why not a share, as its weight alone gives: a slow callee's calls each hold their caller, so a share of
 * the traffic holds more callers the faster the traffic. Even the slow floor's 1% of the picks is dozens of
 * calls a second at a few thousand, and under packet loss a fifth of them wait out a 200 ms+ TCP
 * retransmission: most of a few synchronous callers' time. A trickle still measures the callee, so it earns
 * its share back once it answers well.
 */
final class Trickle<T> {

    private final Ticker ticker;
    private final long intervalNanos;

    Trickle(Ticker ticker, long intervalNanos) {
        this.ticker = ticker;
        this.intervalNanos = intervalNanos;
    }

    /** Whether {@code callee} may be picked now; reads the clock only for a limited one. */
    boolean admits(Callee<T> callee) {
        return !callee.isLimited() || callee.mayTakeTrial(ticker.read(), intervalNanos);
    }

    /** Takes the trial a limited {@code callee} was picked for; false if another thread took it first. */
    boolean claim(Callee<T> callee) {
        return !callee.isLimited() || callee.claimTrial(ticker.read(), intervalNanos);
    }
}
