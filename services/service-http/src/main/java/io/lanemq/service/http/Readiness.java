package io.lanemq.service.http;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * What {@code /readyz} answers: the phase a service is in and, while it serves, its own checks. A service
 * is ready only in {@link Phase#SERVING} with its checks up, so a Kubernetes Service sends it no traffic
 * while it starts, while it catches up after a restart, or from the first moment of a drain.
 *
 * <p>Phases only move forward: {@code STARTING → CATCHING_UP → SERVING → DRAINING}; {@link #draining()}
 * is final, so a late {@link #serving()} from a start that raced a SIGTERM cannot make a draining
 * service ready again. Thread-safe.
 *
 * <pre>{@code
 * Readiness readiness = Readiness.withChecks(() -> store.writable() ? Health.up("store ok") : Health.down("store full"));
 * readiness.catchingUp();   // recovering
 * readiness.serving();      // /readyz 200 while the checks are up
 * readiness.draining();     // SIGTERM: /readyz 503 from now on
 * }</pre>
 */
public final class Readiness {

    /** Where a service is in its life. */
    public enum Phase { STARTING, CATCHING_UP, SERVING, DRAINING }

    private final AtomicReference<Phase> phase = new AtomicReference<>(Phase.STARTING);
    private final Supplier<ServiceEndpoints.Health> checks;

    private Readiness(Supplier<ServiceEndpoints.Health> checks) {
        this.checks = checks;
    }

    /** Ready whenever serving. */
    public static Readiness create() {
        return new Readiness(() -> ServiceEndpoints.Health.up(""));
    }

    /** Ready when serving and {@code checks} report up; their text follows the phase in the answer. */
    public static Readiness withChecks(Supplier<ServiceEndpoints.Health> checks) {
        return new Readiness(Objects.requireNonNull(checks, "checks"));
    }

    /** From STARTING only: recovering state or re-reading what was left after a restart. */
    public void catchingUp() {
        phase.compareAndSet(Phase.STARTING, Phase.CATCHING_UP);
    }

    /** From STARTING or CATCHING_UP; ignored once draining. */
    public void serving() {
        phase.updateAndGet(p -> p == Phase.DRAINING ? p : Phase.SERVING);
    }

    /** Final: not ready from now on. */
    public void draining() {
        phase.set(Phase.DRAINING);
    }

    public Phase phase() {
        return phase.get();
    }

    /** The answer of {@code /readyz}: up only while serving with the checks up; the body starts with the phase. */
    public ServiceEndpoints.Health health() {
        Phase now = phase.get();
        if (now != Phase.SERVING) {
            return ServiceEndpoints.Health.down(now.name());
        }
        ServiceEndpoints.Health checked = checks.get();
        String text = checked.text().isEmpty() ? now.name() : now.name() + "\n" + checked.text();
        return new ServiceEndpoints.Health(checked.up(), text);
    }
}
