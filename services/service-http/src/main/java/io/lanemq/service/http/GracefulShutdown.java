package io.lanemq.service.http;

import io.lanemq.support.NamedThreads;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SIGTERM handling shared by the services: readiness goes to DRAINING at once, then, for the readiness delay, the
 * service goes on serving while the Kubernetes endpoints controller and every kube-proxy take the pod out of its
 * Service (they learn of it asynchronously, from the SIGTERM's pod deletion and from {@code /readyz}); only then does
 * the service's own graceful stop run, bounded by a grace period. Past it the JVM exits anyway, so the kubelet's
 * SIGKILL ({@code terminationGracePeriodSeconds}, set above delay plus grace) is never what ends a service.
 *
 * <p>The stop runs on its own thread ({@code <owner>-stop}) so the bound holds whatever the stop blocks on.
 */
public final class GracefulShutdown {
    private static final Logger log = LoggerFactory.getLogger(GracefulShutdown.class);

    /** Bounds of a grace period a service accepts. */
    public static final Duration MAX_GRACE = Duration.ofMinutes(10);
    /** Bounds of a readiness delay a service accepts. */
    public static final Duration MAX_READINESS_DELAY = Duration.ofMinutes(2);

    private GracefulShutdown() {
    }

    /**
     * Registers the JVM shutdown hook (run on SIGTERM and SIGINT) named {@code <owner>-shutdown}, which runs
     * {@link #drain}.
     *
     * @return the hook, for a caller that wants to remove it
     */
    public static Thread install(String owner, Readiness readiness, Duration readinessDelay, Duration grace, Runnable stop) {
        requireReadinessDelay(readinessDelay);
        requireGrace(grace);
        Objects.requireNonNull(readiness, "readiness");
        Objects.requireNonNull(stop, "stop");
        Thread hook = new Thread(() -> drain(owner, readiness, readinessDelay, grace, stop), owner + "-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        return hook;
    }

    /**
     * Marks {@code readiness} draining, keeps serving for {@code readinessDelay}, then runs {@code stop} and waits for
     * it at most {@code grace}.
     *
     * @param readinessDelay how long the service goes on serving while not ready, for the load balancers to stop
     *                       routing to it (zero: stop at once)
     * @return true when the stop finished within the grace period
     */
    public static boolean drain(String owner, Readiness readiness, Duration readinessDelay, Duration grace, Runnable stop) {
        readiness.draining();
        if (!readinessDelay.isZero()) {
            log.info("{}: not ready; still serving for {} ms while load balancers stop routing here, then stopping", owner,
                    readinessDelay.toMillis());
            try {
                // The delay itself is the point: nothing to poll for, the load balancers do not report back.
                Thread.sleep(readinessDelay.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        long start = System.nanoTime();
        Thread stopping = NamedThreads.daemon(owner + "-stop", () -> {
            try {
                stop.run();
            } catch (RuntimeException e) {
                log.error("{}: graceful stop failed", owner, e);
            }
        });
        stopping.start();
        try {
            stopping.join(Math.max(1, grace.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        if (stopping.isAlive()) {
            log.warn("{}: graceful stop still running after the {} ms grace period; exiting without it", owner,
                    grace.toMillis());
            return false;
        }
        log.info("{}: stopped gracefully in {} ms", owner, tookMs);
        return true;
    }

    /**
     * @throws IllegalArgumentException naming the setting when {@code delay} is negative or above
     *                                  {@link #MAX_READINESS_DELAY}
     */
    public static Duration requireReadinessDelay(Duration delay) {
        Objects.requireNonNull(delay, "readinessDelay");
        if (delay.isNegative() || delay.compareTo(MAX_READINESS_DELAY) > 0) {
            throw new IllegalArgumentException("readinessDelay must be between 0 and " + MAX_READINESS_DELAY + ": " + delay);
        }
        return delay;
    }

    /** @throws IllegalArgumentException naming the setting when {@code grace} is negative or above {@link #MAX_GRACE} */
    public static Duration requireGrace(Duration grace) {
        Objects.requireNonNull(grace, "shutdownGrace");
        if (grace.isNegative() || grace.compareTo(MAX_GRACE) > 0) {
            throw new IllegalArgumentException("shutdownGrace must be between 0 and " + MAX_GRACE + ": " + grace);
        }
        return grace;
    }
}
