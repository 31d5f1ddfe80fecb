package io.lanemq.failover;

import java.time.Duration;

/**
 * One use of a callee handed out by {@link WeightedFailover#pick()}: the caller reports how the
 * call went exactly once, which also releases the callee's in-flight slot.
 *
 * <p>Only the first of {@link #onSuccess}, {@link #onFailure} and {@link #onIgnore} counts;
 * later calls are ignored, so a {@code finally} that calls {@code onIgnore()} after an explicit
 * outcome is safe. A lease that is never completed keeps its callee's in-flight count raised,
 * which lowers the callee's share of traffic: always complete it.
 *
 * <pre>{@code
 * Optional<Lease<Cluster>> lease = failover.pick();
 * if (lease.isEmpty()) {
 *     return SendResult.noClusterAvailable();
 * }
 * long start = System.nanoTime();
 * try {
 *     SendResult result = lease.get().callee().send(message);
 *     lease.get().onSuccessNanos(System.nanoTime() - start);
 *     return result;
 * } catch (BrokerBusyException e) {
 *     lease.get().onFailure();
 *     throw e;
 * } finally {
 *     lease.get().onIgnore();
 * }
 * }</pre>
 *
 * <p>Thread-safe: a lease may be completed from any thread, such as an async callback.
 *
 * @param <T> the callee type
 */
public interface Lease<T> {

    /** Returns the callee this lease is for. */
    T callee();

    /**
     * Reports a successful call that took {@code latencyNanos}; the callee regains weight
     * unless its smoothed latency marks it as slow against its peers.
     */
    void onSuccessNanos(long latencyNanos);

    /** Reports a successful call that took {@code latency}; see {@link #onSuccessNanos(long)}. */
    default void onSuccess(Duration latency) {
        onSuccessNanos(latency.toNanos());
    }

    /** Reports a failed call: the callee's weight is cut. */
    void onFailure();

    /**
     * Releases the in-flight slot without judging the callee, for outcomes that say nothing
     * about its health (a rejected message, a cancelled call).
     */
    void onIgnore();
}
