package io.lanemq.core.internal.produce;

import io.lanemq.api.MessagingException;
import io.lanemq.api.SendFailedException;
import io.lanemq.api.SendResult;
import io.lanemq.api.spi.BoundSendResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One send, on the broker clients' asynchronous API, with its own clock: no caller ever runs broker-client
 * code that can block (a connect to a silent host, a route refresh from an unreachable name server).
 *
 * <ul>
 *   <li>An attempt answered with a failure that may be retried moves on to the next cluster at once.</li>
 *   <li>An attempt still unanswered after {@code failoverAfter} (a quarter of it when its cluster has answered
 *       nothing at all meanwhile: a stalled connection), while another cluster is left and has answered
 *       quickly since the attempt started, counts as a failure of its cluster (so the failover stops picking it
 *       now, not at the timeout) and the send moves on; the first success wins. Without such an answer (the
 *       whole host may be stalled) the attempt gets until half the send timeout (see {@link ClusterPulse}). A late success of the abandoned attempt stores a second copy, which the
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
    private final SendTimers timers;
    private final CompletableFuture<SendResult> result = new CompletableFuture<>();
    private final long deadlineNanos;
    // Guarded by this. The outcome is decided under the lock and handed to the future outside it, so that
    // the caller's dependent stages never run while this send holds its lock.
    private boolean decided;
    private Attempt current;
    private int outstanding;
    private SendTimers.Timer timer;
    /** The attempts' answers (one per attempt); those still awaited are withdrawn once the send is decided (see {@link #start}). */
    private final List<CompletableFuture<BoundSendResult>> awaited = new ArrayList<>(2);

    FailoverSend(SendAttempts attempts, ClusterProducers clusters, SendTimers timers) {
        this.attempts = attempts;
        this.clusters = clusters;
        this.timers = timers;
        this.deadlineNanos = attempts.now() + attempts.sendTimeout().toNanos();
    }

    /** Starts the first attempt; the future completes by the send timeout at the latest. */
    CompletableFuture<SendResult> start() {
        // Once decided, an attempt still gathered and not yet on the wire is withdrawn: the caller was answered,
        // so sending it would only store a copy nobody was told of. One already on the wire completes as it may.
        result.whenComplete((sent, failure) -> withdrawAwaited());
        next();
        return result;
    }

    private void withdrawAwaited() {
        List<CompletableFuture<BoundSendResult>> pending;
        synchronized (this) {
            pending = List.copyOf(awaited);
            awaited.clear();
        }
        pending.forEach(sending -> sending.cancel(false));
    }

    private void next() {
        Attempt attempt;
        MessagingException failure = null;
        synchronized (this) {
            if (decided) {
                return;
            }
            try {
                attempt = attempts.next();
            } catch (MessagingException e) {
                attempt = null;
                if (outstanding == 0) {
                    failure = decideFailure(e);
                } else {
                    failure = armDeadline(); // an abandoned attempt may still succeed, until the deadline
                }
            }
            if (attempt != null) {
                failure = arm(attempt);
                if (failure == null) {
                    current = attempt;
                    outstanding++;
                } else {
                    attempt = null;
                }
            }
        }
        if (failure != null) {
            result.completeExceptionally(failure);
            return;
        }
        if (attempt == null) {
            return;
        }
        CompletableFuture<BoundSendResult> sending;
        try {
            sending = clusters.gathering(attempt.cluster()).send(attempt.physical(), attempts.batch());
        } catch (MessagingException | RuntimeException e) {
            sending = CompletableFuture.failedFuture(e);
        }
        Attempt started = attempt;
        CompletableFuture<BoundSendResult> answer = sending;
        boolean decidedMeanwhile;
        synchronized (this) {
            decidedMeanwhile = decided;
            if (!decidedMeanwhile) {
                awaited.add(answer); // left in once answered: cancelling an answered future does nothing
            }
        }
        answer.whenComplete((sent, error) -> completed(started, sent, error, SendGathering.speaksForRequest(answer)));
        if (decidedMeanwhile) {
            answer.cancel(false);
        }
    }

    private void completed(Attempt attempt, BoundSendResult sent, Throwable failure, boolean forRequest) {
        boolean retry = false;
        SendResult success = null;
        MessagingException error = null;
        synchronized (this) {
            outstanding--;
            if (failure == null) {
                SendResult stored = attempts.succeeded(attempt, sent, forRequest);
                if (decided) {
                    log.debug("late success of an abandoned attempt on cluster {}: message {} is stored twice",
                            attempt.cluster(), stored.messageId());
                } else {
                    decided = true;
                    cancelTimer();
                    success = stored;
                }
            } else {
                MessagingException attemptFailure = attempts.failed(attempt, failure, forRequest);
                if (!decided) {
                    // Only the newest attempt's failure moves on: an abandoned one already has its successor.
                    retry = attempt == current && attempts.mayRetry(attempt, attemptFailure);
                    if (!retry) {
                        error = outstanding == 0 ? decideFailure(attempts.finalFailure(attemptFailure))
                                : attempt == current ? armDeadline() : null; // an older attempt may still succeed
                    }
                }
            }
        }
        if (success != null) {
            result.complete(success);
        } else if (error != null) {
            result.completeExceptionally(error);
        } else if (retry) {
            next();
        }
    }

    private void onTimer() {
        boolean retry = false;
        MessagingException error = null;
        synchronized (this) {
            if (decided) {
                return;
            }
            long now = attempts.now();
            if (now - deadlineNanos >= 0) {
                attempts.unanswered(current);
                error = decideFailure(new SendFailedException("no cluster answered within the send timeout of "
                        + attempts.sendTimeout().toMillis() + " ms (" + attempts.whyTried() + "); the message may "
                        + "still be stored", attempts.logicTopic(), current.cluster(), null));
            } else if (!attempts.overdue(current, now)) {
                // No evidence against its cluster yet: look again shortly, within this attempt's last chance.
                long lastChance = current.startNanos() + attempts.lastChanceNanos();
                error = schedule(Math.min(Math.min(deadlineNanos, lastChance), now + attempts.recheckNanos()) - now);
            } else {
                SendFailedException unanswered = attempts.unanswered(current);
                retry = attempts.mayRetry(current, unanswered);
                if (!retry) {
                    error = armDeadline();
                }
            }
        }
        if (error != null) {
            result.completeExceptionally(error);
        } else if (retry) {
            next();
        }
    }

    /**
     * Sets the next check: a failover while another cluster is left and it comes before the deadline, else the
     * deadline. Returns the failure to report if no timer can be set (the producer closed meanwhile).
     */
    private MessagingException arm(Attempt attempt) {
        long now = attempts.now();
        long at = deadlineNanos;
        if (attempts.canRetry()) {
            at = Math.min(at, now + attempts.stallNanos(attempt.cluster())); // the first look for a stalled cluster (see overdue)
        }
        return schedule(at - now);
    }

    private MessagingException armDeadline() {
        return schedule(deadlineNanos - attempts.now());
    }

    private MessagingException schedule(long delayNanos) {
        cancelTimer();
        try {
            timer = timers.schedule(this::onTimer, delayNanos);
            return null;
        } catch (RejectedExecutionException closed) {
            return decideFailure(new SendFailedException("the producer was closed while this send was in flight; "
                    + "the message may still be stored", attempts.logicTopic(), null, closed));
        }
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel();
            timer = null;
        }
    }

    /** Decides the send failed (under the lock); the caller completes the future with it outside the lock. */
    private MessagingException decideFailure(MessagingException error) {
        decided = true;
        cancelTimer();
        return error;
    }
}
