package io.lanemq.failover;

import io.lanemq.support.NamedThreads;
import io.lanemq.support.Ticker;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Probes down callees with the {@link HealthChecker} and revives the healthy ones.
 *
 * <p>The periodic task runs only while something is down: it is started by the first callee to
 * go down and stops itself once none is, so an idle failover costs no thread wake-ups. A callee
 * is probed once a full probe interval (on the injected ticker) has passed since it went down or
 * since its last failed probe; the task ticks at half the interval so that wait stays close to
 * the interval. Without an injected executor, a single daemon thread is created on first need
 * and shut down by {@link #close()}.
 */
final class Prober<T> implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Prober.class);

    private final String name;
    private final HealthChecker<? super T> checker;
    private final long intervalNanos;
    private final Ticker ticker;
    private final Supplier<Membership<T>> membership;
    private final ScheduledExecutorService injectedExecutor;

    private ScheduledExecutorService ownedExecutor; // guarded by this
    private ScheduledFuture<?> task; // guarded by this
    private boolean closed; // guarded by this

    Prober(String name, HealthChecker<? super T> checker, long intervalNanos, Ticker ticker,
            Supplier<Membership<T>> membership, ScheduledExecutorService injectedExecutor) {
        this.name = name;
        this.checker = checker;
        this.intervalNanos = intervalNanos;
        this.ticker = ticker;
        this.membership = membership;
        this.injectedExecutor = injectedExecutor;
    }

    /** Called after a callee went down: stamps it and makes sure probing runs. */
    void wentDown(Callee<T> callee, String reason) {
        callee.setDownSinceNanos(ticker.read());
        log.warn("[failover={}, callee={}] down after {}; probing every {} ms",
                name, callee.value, reason, TimeUnit.NANOSECONDS.toMillis(intervalNanos));
        synchronized (this) {
            if (closed || task != null) {
                return;
            }
            long tick = Math.max(1, intervalNanos / 2);
            task = executor().scheduleWithFixedDelay(this::tick, tick, tick, TimeUnit.NANOSECONDS);
        }
    }

    /** Probes every down callee whose wait is over; returns how many came back. */
    int checkNow() {
        int revived = 0;
        for (Callee<T> callee : membership.get().callees()) {
            if (!callee.isDown() || ticker.read() - callee.downSinceNanos() < intervalNanos) {
                continue;
            }
            if (probe(callee)) {
                if (callee.revive()) {
                    revived++;
                    log.info("[failover={}, callee={}] probe succeeded; back at weight {}",
                            name, callee.value, callee.weight());
                }
            } else {
                callee.setDownSinceNanos(ticker.read());
            }
        }
        return revived;
    }

    private boolean probe(Callee<T> callee) {
        try {
            return checker.isHealthy(callee.value);
        } catch (Exception e) {
            log.debug("[failover={}, callee={}] probe threw; still down", name, callee.value, e);
            return false;
        }
    }

    private void tick() {
        try {
            checkNow();
        } catch (RuntimeException e) {
            // A throwing checker must not kill the schedule and strand the callee down.
            log.warn("[failover={}] probe round failed", name, e);
        }
        synchronized (this) {
            for (Callee<T> callee : membership.get().callees()) {
                if (callee.isDown()) {
                    return;
                }
            }
            if (task != null) {
                task.cancel(false);
                task = null;
            }
        }
    }

    boolean isRunning() {
        synchronized (this) {
            return task != null;
        }
    }

    private ScheduledExecutorService executor() {
        if (injectedExecutor != null) {
            return injectedExecutor;
        }
        if (ownedExecutor == null) {
            ownedExecutor = Executors.newSingleThreadScheduledExecutor(NamedThreads.single("lanemq-failover-probe-" + name));
        }
        return ownedExecutor;
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            if (task != null) {
                task.cancel(false);
                task = null;
            }
            if (ownedExecutor != null) {
                ownedExecutor.shutdownNow();
                ownedExecutor = null;
            }
        }
    }
}
