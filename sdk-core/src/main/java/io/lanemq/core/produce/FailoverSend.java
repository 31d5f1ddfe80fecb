package io.lanemq.core.produce;

import io.lanemq.api.MessagingException;
import io.lanemq.api.SendFailedException;
import io.lanemq.api.SendResult;
import io.lanemq.api.spi.BoundSendResult;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One send, on the broker clients' asynchronous API, with its own clock: no caller ever runs broker-client
 * code that can block (a connect to a silent host, a route refresh from an unreachable name server).
 *
 * <ul>
 *   <li>An attempt answered with a failure that may be retried moves on to the next cluster at once.</li>
 *   <li>An attempt still unanswered after {@code failoverAfter} while another cluster is left counts as a
 *       failure of its cluster (so the failover stops picking it now, not at the timeout) and the send moves
 *       on; the first success wins. A late success of the abandoned attempt stores a second copy, which the
 *       at-least-once consumers absorb: the same outcome as a lost acknowledgement.</li>
 *   <li>At {@code sendTimeout} after the send started, it fails, whatever is still outstanding.</li>
 * </ul>
 *
 * <p>So a sync caller waits at most the send timeout, and when a data centre stops answering, each caller
 * loses at most {@code failoverAfter} once before the failover marks the data centre down.
 */
final class FailoverSend {
    private static final Logger log = LoggerFactory.getLogger(FailoverSend.class);

    private final SendAttempts attempts;
    private final ClusterProducers clusters;
    private final ScheduledExecutorService timers;
    private final CompletableFuture<SendResult> result = new CompletableFuture<>();
    private final long startNanos = System.nanoTime();
    private final long deadlineNanos;
    // Guarded by this.
    private Attempt current;
    private int outstanding;
    private ScheduledFuture<?> timer;

    FailoverSend(SendAttempts attempts, ClusterProducers clusters, ScheduledExecutorService timers) {
        this.attempts = attempts;
        this.clusters = clusters;
        this.timers = timers;
        this.deadlineNanos = startNanos + attempts.sendTimeout().toNanos();
    }

    /** Starts the first attempt; the future completes by the send timeout at the latest. */
    CompletableFuture<SendResult> start() {
        next();
        return result;
    }

    private void next() {
        Attempt attempt;
        synchronized (this) {
            if (result.isDone()) {
                return;
            }
            try {
                attempt = attempts.next();
            } catch (MessagingException e) {
                if (outstanding == 0) {
                    finish(e);
                } else {
                    armDeadline(); // an abandoned attempt may still succeed, until the deadline
                }
                return;
            }
            current = attempt;
            outstanding++;
            arm();
        }
        CompletableFuture<BoundSendResult> sending;
        try {
            sending = clusters.get(attempt.cluster()).sendAsync(attempt.physical());
        } catch (MessagingException | RuntimeException e) {
            sending = CompletableFuture.failedFuture(e);
        }
        sending.whenComplete((sent, failure) -> completed(attempt, sent, failure));
    }

    private void completed(Attempt attempt, BoundSendResult sent, Throwable failure) {
        boolean retry;
        synchronized (this) {
            outstanding--;
            if (failure == null) {
                SendResult success = attempts.succeeded(attempt, sent);
                if (result.complete(success)) {
                    cancelTimer();
                } else {
                    log.debug("late success of an abandoned attempt on cluster {}: message {} is stored twice",
                            attempt.cluster(), success.messageId());
                }
                return;
            }
            MessagingException error = attempts.failed(attempt, failure);
            if (result.isDone()) {
                return;
            }
            // Only the newest attempt's failure moves on: an abandoned one already has its successor.
            retry = attempt == current && attempts.mayRetry(attempt, error);
            if (!retry && outstanding == 0) {
                finish(error);
            }
        }
        if (retry) {
            next();
        }
    }

    private void onTimer() {
        boolean retry = false;
        synchronized (this) {
            if (result.isDone()) {
                return;
            }
            if (System.nanoTime() - deadlineNanos >= 0) {
                attempts.unanswered(current);
                finish(new SendFailedException("no cluster answered within the send timeout of "
                        + attempts.sendTimeout().toMillis() + " ms (tried " + attempts.tried() + "); the message may "
                        + "still be stored", attempts.logicTopic(), current.cluster(), null));
                return;
            }
            SendFailedException unanswered = attempts.unanswered(current);
            retry = attempts.mayRetry(current, unanswered);
            if (!retry) {
                arm();
            }
        }
        if (retry) {
            next();
        }
    }

    /** The next check: a failover while another cluster is left and it comes before the deadline, else the deadline. */
    private void arm() {
        cancelTimer();
        long now = System.nanoTime();
        long at = deadlineNanos;
        if (attempts.canRetry()) {
            at = Math.min(at, now + attempts.failoverAfter().toNanos());
        }
        timer = timers.schedule(this::onTimer, Math.max(0, at - now), TimeUnit.NANOSECONDS);
    }

    private void armDeadline() {
        cancelTimer();
        timer = timers.schedule(this::onTimer, Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    private void finish(MessagingException error) {
        cancelTimer();
        result.completeExceptionally(error);
    }
}
