package io.lanemq.core.internal.produce;

import io.lanemq.api.CancelOutcome;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.InvalidMessageException;
import io.lanemq.api.LocalTransaction;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Producer;
import io.lanemq.api.SendFailedException;
import io.lanemq.api.SendResult;
import io.lanemq.api.TransactionChecker;
import io.lanemq.api.TransactionResolution;
import io.lanemq.api.spi.BoundSendResult;
import io.lanemq.config.ConfigSubscriber;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigRef;
import io.lanemq.core.internal.ClientContext;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.core.internal.routing.ClusterChooser;
import io.lanemq.support.NamedThreads;
import io.lanemq.support.Ticker;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application's producer: validates each message against the current configuration
 * snapshot, asks the {@link ClusterChooser} for a cluster of its logic topic, sends through that
 * cluster's bound producer, and reports the outcome back so failing or slow clusters lose weight.
 *
 * <p>A send the chosen cluster fails is retried once per remaining cluster of the topic. Only
 * failures are retried, never an acknowledged send, so the broker never stores a message twice
 * because of this producer; a failure that was really a lost acknowledgement (a timeout) can
 * still leave a copy in the first cluster, which at-least-once consumers absorb. A message the
 * platform refuses ({@link InvalidMessageException}) is not retried anywhere.
 *
 * <p>A send marked as stress-test traffic (by the sender's {@link io.lanemq.api.MessageContext}, or by the
 * message's own property when the delay server re-sends it) goes to the shadow topic of the chosen route,
 * with the same cluster choice, failover and delay path; a logic topic without {@code stressTest: true}
 * refuses it before anything is sent.
 */
public final class RoutingProducer implements Producer, ConfigSubscriber {
    private static final Logger log = LoggerFactory.getLogger(RoutingProducer.class);
    /** How late a send's failover or deadline may be decided: far below a quarter of any sane failoverAfterMs. */
    private static final Duration TICK = Duration.ofMillis(5);

    private final String producerGroup;
    private final Optional<TransactionChecker> transactionChecker;
    private final PlatformConfigRef config;
    private final ClusterChooser chooser;
    private final ClusterProducers clusters;
    private final SdkMetrics metrics;
    private final TopicRateLimits rateLimits;
    private final ContextStamp stamp;
    private final Consumer<AutoCloseable> onClose;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Failover and deadline timers of sends in flight, and throttled starts; one thread, timers only. */
    private final ScheduledThreadPoolExecutor timers;
    /** The sends' timers, in ticks of {@link #TICK} on {@link #timers}. */
    private final SendTimers sendTimers;
    private final ClusterPulse pulse;
    private final HeldBytes heldBytes = new HeldBytes();
    private final Ticker ticker;
    private final InstantSource wallClock;
    private final SendObservation.Factory observations;
    /** What every send of this producer routes with. */
    private final SendRouting routing;

    /**
     * A producer of the group {@code clusters} serve, whose sends are observed on the client's observation registry
     * (see {@link io.lanemq.core.observation.LaneMqObservations}).
     *
     * @param client     the client's configuration, meters, clocks and observation registry
     * @param clusters   the group's producer on each cluster (its group name and transaction checker are this producer's)
     * @param chooser    the client's failover, which picks each attempt's cluster
     * @param rateLimits the client's per-topic rate limits, shared by all its producers
     * @param stamp      what every message sent is stamped with (the lane)
     * @param onClose    told once this producer closed
     */
    public RoutingProducer(ClientContext client, ClusterProducers clusters, ClusterChooser chooser, TopicRateLimits rateLimits,
                           ContextStamp stamp, Consumer<AutoCloseable> onClose) {
        this.observations = SendObservation.Factory.of(client.observations());
        this.producerGroup = clusters.producerGroup();
        this.transactionChecker = clusters.transactionChecker();
        this.config = client.config();
        this.chooser = chooser;
        this.clusters = clusters;
        this.metrics = client.metrics();
        this.rateLimits = rateLimits;
        this.stamp = stamp;
        this.onClose = onClose;
        this.ticker = client.clocks().ticker();
        this.wallClock = client.clocks().wall();
        this.pulse = new ClusterPulse(ticker);
        this.routing = new SendRouting(chooser, metrics, pulse, ticker);
        this.timers = new ScheduledThreadPoolExecutor(1, NamedThreads.single(NamedThreads.name("lanemq-producer-timers", producerGroup)));
        // A cancelled timer (the usual case: the send was answered) leaves the queue at once, not at its due time.
        timers.setRemoveOnCancelPolicy(true);
        this.sendTimers = new SendTimers(timers, ticker, TICK.toNanos());
    }

    /**
     * Waits for the same send as {@link #sendAsync}: the caller never runs broker-client code, so a cluster that
     * stops answering costs it at most {@code failoverAfterMs} before the next cluster is tried, and never more
     * than the throttling wait plus the send timeout in all.
     */
    @Override
    public SendResult send(Message message) throws MessagingException {
        CompletableFuture<SendResult> sending = observedSend(message);
        try {
            return sending.get();
        } catch (ExecutionException e) {
            // Already named with its logic topic and cluster by the attempt that failed.
            if (e.getCause() instanceof MessagingException failure) {
                throw failure;
            }
            throw Errors.withLogicTopic(e.getCause(), message.logicTopic(), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SendFailedException("interrupted while waiting for the send; it may still complete",
                    message.logicTopic(), null, e);
        }
    }

    @Override
    public CompletableFuture<SendResult> sendAsync(Message message) {
        try {
            return observedSend(message);
        } catch (MessagingException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** The send behind {@link #send} and {@link #sendAsync}, inside its observation (which a refusal ends too). */
    private CompletableFuture<SendResult> observedSend(Message message) throws MessagingException {
        SendObservation observation = observations.start(message.logicTopic());
        try {
            SendAttempts attempts = newAttempts(message, observation);
            long wait = permit(attempts.topic);
            return observation.watch(held(attempts, () -> start(attempts, wait)));
        } catch (MessagingException | RuntimeException e) {
            observation.failed(e);
            throw e;
        }
    }

    /**
     * Runs {@code sending} once its bytes fit under the producer's {@code maxHeldBytes}, and gives them back when
     * it ends: the caller waits for room up to the send timeout (an asynchronous caller too, as RocketMQ's own
     * back-pressure makes it), then the send fails naming the limit; nothing is dropped unannounced.
     */
    private CompletableFuture<SendResult> held(SendAttempts attempts, Supplier<CompletableFuture<SendResult>> sending)
            throws SendFailedException {
        long bytes = attempts.bytes();
        try {
            if (!heldBytes.acquire(bytes, attempts.maxHeldBytes(), attempts.sendTimeout().toNanos())) {
                metrics.sendRejected(attempts.logicTopic(), "HeldBytesLimit");
                throw new SendFailedException("the producer holds maxHeldBytes (" + attempts.maxHeldBytes() + ") of "
                        + "unanswered sends and no room came within the send timeout of " + attempts.sendTimeout().toMillis()
                        + " ms; nothing was sent", attempts.logicTopic(), null, null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SendFailedException("interrupted while waiting for room under maxHeldBytes; nothing was sent",
                    attempts.logicTopic(), null, e);
        }
        CompletableFuture<SendResult> started;
        try {
            started = sending.get();
        } catch (RuntimeException e) {
            heldBytes.release(bytes);
            throw e;
        }
        started.whenComplete((sent, failure) -> heldBytes.release(bytes));
        return started;
    }

    /** Starts the send once its permit is due (after {@code wait} nanos), never blocking the caller. */
    private CompletableFuture<SendResult> start(SendAttempts attempts, long wait) {
        if (wait == TopicRateLimits.NOW) {
            return new FailoverSend(attempts, clusters, sendTimers).start();
        }
        // Throttled: the send starts when its permit is due.
        CompletableFuture<SendResult> result = new CompletableFuture<>();
        try {
            timers.schedule(() -> new FailoverSend(attempts, clusters, sendTimers).start().whenComplete((sent, failure) -> {
                if (failure == null) {
                    result.complete(sent);
                } else {
                    result.completeExceptionally(failure);
                }
            }), wait, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            result.completeExceptionally(new SendFailedException("producer is closed", attempts.logicTopic(), null, closed));
        }
        return result;
    }

    @Override
    public SendResult sendInTransaction(Message message, LocalTransaction localTransaction) throws MessagingException {
        if (message.deliverAt().isPresent()) {
            throw new InvalidMessageException("a delayed message cannot be sent in a transaction: the delay server, not "
                    + "this producer, sends it to the topic; send it with send() once the local transaction committed",
                    message.logicTopic());
        }
        if (transactionChecker.isEmpty()) {
            throw new InvalidConfigurationException("producer group '" + producerGroup
                    + "' has no transaction checker; set ProducerOptions.transactionChecker to send in transactions");
        }
        // Once the local transaction has run, its outcome belongs to that cluster's prepared
        // message: sending it to another cluster could commit the business change twice.
        AtomicBoolean localRan = new AtomicBoolean();
        return sendWithFailover(message, attempt -> clusters.get(attempt.cluster()).sendInTransaction(attempt.physical(),
                prepared -> {
                    localRan.set(true);
                    return runLocal(localTransaction, attempt.result(prepared));
                }), () -> !localRan.get());
    }

    /**
     * The synchronous path, kept for transactions alone: the local transaction runs between the prepared send
     * and its end, on the caller's thread, inside the broker client's call.
     *
     * @param retryAllowed asked after a failed attempt whether another cluster may be tried
     */
    private SendResult sendWithFailover(Message message, AttemptSender sender, BooleanSupplier retryAllowed)
            throws MessagingException {
        SendObservation observation = observations.start(message.logicTopic());
        try {
            SendResult result = sendWithFailover(newAttempts(message, observation), sender, retryAllowed);
            observation.succeeded(result);
            return result;
        } catch (MessagingException | RuntimeException e) {
            observation.failed(e);
            throw e;
        }
    }

    private SendResult sendWithFailover(SendAttempts attempts, AttemptSender sender, BooleanSupplier retryAllowed)
            throws MessagingException {
        long wait = permit(attempts.topic);
        if (wait > 0) {
            LockSupport.parkNanos(wait); // throttling the caller to the topic's configured rate
        }
        while (true) {
            Attempt attempt = attempts.next();
            try {
                return attempts.succeeded(attempt, sender.send(attempt), true);
            } catch (MessagingException | RuntimeException e) {
                MessagingException error = attempts.failed(attempt, e, true);
                if (!retryAllowed.getAsBoolean() || !attempts.mayRetry(attempt, error)) {
                    throw attempts.finalFailure(error);
                }
            }
        }
    }

    private TransactionResolution runLocal(LocalTransaction localTransaction, SendResult prepared) {
        try {
            TransactionResolution resolution = localTransaction.execute(prepared);
            return resolution == null ? TransactionResolution.UNKNOWN : resolution;
        } catch (Exception e) {
            log.warn("local transaction failed for message {} [logicTopic={}, cluster={}]; the broker will check it back",
                    prepared.messageId(), prepared.logicTopic(), prepared.cluster(), e);
            return TransactionResolution.UNKNOWN;
        }
    }

    /** The wait before this send may start under its topic's rate limit; a send that cannot wait is refused. */
    private long permit(LogicTopicConfig topic) throws SendFailedException {
        long wait = rateLimits.reserve(topic, config.current().producer().sendTimeout());
        if (wait == TopicRateLimits.REFUSED) {
            metrics.sendRejected(topic.name(), "RateLimited");
            throw new SendFailedException("rate limit of " + topic.rateLimitPerSecond()
                    + " sends/s reached and no permit within the send timeout; nothing was sent", topic.name(), null, null);
        }
        return wait;
    }

    @Override
    public CancelOutcome cancelDelayed(String delayId) throws MessagingException {
        if (closed.get()) {
            throw new SendFailedException("producer is closed; cannot cancel delayed message " + delayId, null, null, null);
        }
        return DelayCancels.cancel(delayId, config.current(), clusters);
    }

    /** Validates {@code message} against one snapshot, which then governs every attempt of the send. */
    private SendAttempts newAttempts(Message message, SendObservation observation) throws MessagingException {
        if (closed.get()) {
            throw new SendFailedException("producer is closed", message.logicTopic(), null, null);
        }
        PlatformConfig snapshot = config.current();
        try {
            Map<String, String> properties = observation.properties(stamp.properties(message));
            boolean stressTest = ContextStamp.marksStressTest(properties);
            return new SendAttempts(routing, SendValidator.check(snapshot, message, stressTest, wallClock), message, properties,
                    snapshot, clusters.newMessageId(), clusters.outOfRotation());
        } catch (MessagingException e) {
            metrics.sendRejected(message.logicTopic(), e.getClass().getSimpleName());
            throw e;
        }
    }

    /**
     * Routing and validation read the snapshot on every send, so only the cluster connections
     * need re-pointing here.
     */
    @Override
    public void apply(PlatformConfig previous, PlatformConfig next) {
        clusters.apply(previous, next);
    }

    @Override
    public String toString() {
        return "RoutingProducer[group=" + producerGroup + "]";
    }

    /** Closes this producer's cluster connections; sends after this fail at once. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            clusters.close();
            // Timers already set still run (the executor's default), so every send still in flight meets its deadline.
            timers.shutdown();
            onClose.accept(this);
        }
    }

    @FunctionalInterface
    private interface AttemptSender {
        BoundSendResult send(Attempt attempt) throws MessagingException;
    }
}
