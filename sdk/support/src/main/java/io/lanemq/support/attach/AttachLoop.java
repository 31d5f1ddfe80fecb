package io.lanemq.support.attach;

import io.lanemq.support.LogThrottle;
import io.lanemq.support.NamedThreads;
import io.lanemq.support.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Attaches one part of a service to one cluster in the background: the attempt runs at once on a thread of its own
 * (a RocketMQ client's start blocks 3-7 s on a silent name server), and after each failure again after the policy's
 * jittered back-off ({@link AttachPolicy#unreachable()}, or {@link AttachPolicy#refused()} for a failure waiting will
 * not cure), each attempt within the process's {@link AttemptBudget}, until one succeeds or the loop is closed. So a
 * service starts on the clusters that answer and takes the others when they come back, without a restart.
 *
 * <p>Each outcome goes to the {@link Outcomes} (a meter); a failure is logged once a minute per loop at most, an
 * attach once. Thread-safe; {@link #close()} stops retrying (an attempt under way finishes on its thread, which is
 * then stopped).
 *
 * <pre>{@code
 * AttachLoop loop = AttachLoop.start("lanemq-delay-attach-idc-b", "reading cluster idc-b", AttachPolicy.DEFAULT, budget,
 *         failure -> true, reader::start, outcomes, Ticker.system());
 * loop.awaitFirstAnswer(AttachPolicy.DEFAULT.startWait());   // serve at once on whatever answered
 * }</pre>
 */
public final class AttachLoop implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AttachLoop.class);

    /** One attach attempt: returns when attached, throws why not. */
    @FunctionalInterface
    public interface Attempt {
        void attach() throws Exception;
    }

    /** Where each attempt's outcome is counted. */
    public interface Outcomes {
        void attached();

        /** @param curable whether waiting may cure the failure (the cluster did not answer) */
        void failed(Exception failure, boolean curable);
    }

    private final String what;
    private final AttachPolicy policy;
    private final AttemptBudget budget;
    private final Predicate<Exception> curable;
    private final Attempt attempt;
    private final Outcomes outcomes;
    private final LogThrottle logs;
    private final ScheduledExecutorService thread;
    private final Instant since = Instant.now();
    /** Guarded by this. */
    private int failures;
    private boolean answered;
    private boolean attached;
    private boolean closed;
    private String reason = "its first attempt has not answered yet";

    private AttachLoop(String threadName, String what, AttachPolicy policy, AttemptBudget budget, Predicate<Exception> curable,
                       Attempt attempt, Outcomes outcomes, Ticker ticker) {
        this.what = Objects.requireNonNull(what, "what");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.budget = Objects.requireNonNull(budget, "budget");
        this.curable = Objects.requireNonNull(curable, "curable");
        this.attempt = Objects.requireNonNull(attempt, "attempt");
        this.outcomes = Objects.requireNonNull(outcomes, "outcomes");
        this.logs = LogThrottle.every(Duration.ofMinutes(1), ticker);
        this.thread = Executors.newSingleThreadScheduledExecutor(NamedThreads.single(threadName));
    }

    /**
     * Starts attaching {@code what} (as logs and health name it, e.g. {@code "reading cluster idc-b"}) on a thread named
     * {@code threadName}; the first attempt runs at once.
     */
    public static AttachLoop start(String threadName, String what, AttachPolicy policy, AttemptBudget budget,
                                   Predicate<Exception> curable, Attempt attempt, Outcomes outcomes, Ticker ticker) {
        AttachLoop loop = new AttachLoop(threadName, what, policy, budget, curable, attempt, outcomes, ticker);
        loop.thread.execute(loop::run);
        return loop;
    }

    /** Waits until the first attempt answered (attached or failed), {@code within} at most; true when attached. */
    public synchronized boolean awaitFirstAnswer(Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!answered && !closed) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return attached;
    }

    public synchronized boolean attached() {
        return attached;
    }

    /** Why not attached yet, with since when; empty once attached. */
    public synchronized Optional<String> reason() {
        return attached ? Optional.empty() : Optional.of("not attached since " + since + ": " + reason);
    }

    private void run() {
        synchronized (this) {
            if (closed || attached) {
                return;
            }
        }
        long wait = budget.reserve();
        if (wait > 0) {
            thread.schedule(this::attemptNow, wait, TimeUnit.NANOSECONDS);
        } else {
            attemptNow();
        }
    }

    private void attemptNow() {
        Exception failure = null;
        try {
            attempt.attach();
        } catch (Exception e) {
            failure = e;
        }
        synchronized (this) {
            if (closed) {
                return;
            }
            answered = true;
            if (failure == null) {
                attached = true;
                outcomes.attached();
                log.info("{}: attached after {} failed attempts, detached since {}", what, failures, since);
            } else {
                failures++;
                boolean cure = curable.test(failure);
                reason = (cure ? "not reachable: " : "refused: ") + failure.getMessage();
                outcomes.failed(failure, cure);
                Duration delay = (cure ? policy.unreachable() : policy.refused()).delay(failures);
                logs.warn(log, what, "{}: not attached since {} ({} attempts); retrying in the background: {}", what, since,
                        failures, failure.getMessage());
                thread.schedule(this::run, delay.toNanos(), TimeUnit.NANOSECONDS);
            }
            notifyAll();
        }
    }

    /** Stops retrying; idempotent. What an attempt attached is the caller's to close. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        thread.shutdownNow();
    }
}
