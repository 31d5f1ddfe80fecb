package io.lanemq.failover;

/**
 * Probes a callee that is down, to decide whether it may take traffic again.
 *
 * <p>Called from the failover's probe thread (or from {@link WeightedFailover#checkNow()}),
 * one callee at a time; it may block for as long as a probe reasonably takes, such as a TCP
 * connect with a timeout. Throwing counts as an unhealthy answer.
 *
 * <pre>{@code
 * HealthChecker<InetSocketAddress> tcp = address -> {
 *     try (Socket socket = new Socket()) {
 *         socket.connect(address, 500);
 *         return true;
 *     }
 * };
 * }</pre>
 *
 * @param <T> the callee type
 */
@FunctionalInterface
public interface HealthChecker<T> {

    /**
     * Returns whether {@code callee} looks able to serve again.
     *
     * @throws Exception treated like {@code false}
     */
    boolean isHealthy(T callee) throws Exception;

    /**
     * Returns a checker that always answers healthy. With it a callee that went down gets a
     * trial at the recovery weight once the probe interval has passed, like a circuit breaker's
     * half-open state; real traffic then decides whether it regains weight or goes down again.
     */
    static <T> HealthChecker<T> alwaysHealthy() {
        return callee -> true;
    }
}
