package io.lanemq.core.produce;

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
import io.lanemq.api.spi.PhysicalMessage;
import io.lanemq.core.config.ConfigSubscriber;
import io.lanemq.core.config.LogicTopicConfig;
import io.lanemq.core.config.PlatformConfig;
import io.lanemq.core.config.PlatformConfigRef;
import io.lanemq.core.config.StressTestSettings;
import io.lanemq.core.config.TopicRoute;
import io.lanemq.core.delay.DelayProtocol;
import io.lanemq.core.delay.DelayTicket;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.core.routing.ClusterChooser;
import io.lanemq.core.routing.RouteLease;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
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

    public RoutingProducer(String producerGroup, Optional<TransactionChecker> transactionChecker, PlatformConfigRef config,
                           ClusterChooser chooser, ClusterProducers clusters, SdkMetrics metrics,
                           TopicRateLimits rateLimits, ContextStamp stamp, Consumer<AutoCloseable> onClose) {
        this.producerGroup = producerGroup;
        this.transactionChecker = transactionChecker;
        this.config = config;
        this.chooser = chooser;
        this.clusters = clusters;
        this.metrics = metrics;
        this.rateLimits = rateLimits;
        this.stamp = stamp;
        this.onClose = onClose;
    }

    @Override
    public SendResult send(Message message) throws MessagingException {
        return sendWithFailover(message, attempt -> clusters.get(attempt.cluster()).send(attempt.physical()), () -> true);
    }

    @Override
    public CompletableFuture<SendResult> sendAsync(Message message) {
        SendAttempts attempts;
        long wait;
        try {
            attempts = newAttempts(message);
            wait = permit(attempts.topic);
        } catch (MessagingException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<SendResult> result = new CompletableFuture<>();
        if (wait == TopicRateLimits.NOW) {
            sendAsyncAttempt(attempts, result);
        } else {
            // Throttled: the send starts when its permit is due; the caller is never blocked.
            CompletableFuture.delayedExecutor(wait, TimeUnit.NANOSECONDS).execute(() -> sendAsyncAttempt(attempts, result));
        }
        return result;
    }

    private void sendAsyncAttempt(SendAttempts attempts, CompletableFuture<SendResult> result) {
        Attempt attempt;
        try {
            attempt = attempts.next();
        } catch (MessagingException e) {
            result.completeExceptionally(e);
            return;
        }
        CompletableFuture<BoundSendResult> sending;
        try {
            sending = clusters.get(attempt.cluster()).sendAsync(attempt.physical());
        } catch (MessagingException | RuntimeException e) {
            sending = CompletableFuture.failedFuture(e);
        }
        sending.whenComplete((sent, failure) -> {
            if (failure == null) {
                result.complete(attempts.succeeded(attempt, sent));
                return;
            }
            MessagingException error = attempts.failed(attempt, failure);
            if (attempts.mayRetry(attempt, error)) {
                sendAsyncAttempt(attempts, result);
            } else {
                result.completeExceptionally(error);
            }
        });
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
     * @param retryAllowed asked after a failed attempt whether another cluster may be tried
     */
    private SendResult sendWithFailover(Message message, AttemptSender sender, BooleanSupplier retryAllowed)
            throws MessagingException {
        SendAttempts attempts = newAttempts(message);
        long wait = permit(attempts.topic);
        if (wait > 0) {
            LockSupport.parkNanos(wait); // throttling the caller to the topic's configured rate
        }
        while (true) {
            Attempt attempt = attempts.next();
            try {
                return attempts.succeeded(attempt, sender.send(attempt));
            } catch (MessagingException | RuntimeException e) {
                MessagingException error = attempts.failed(attempt, e);
                if (!retryAllowed.getAsBoolean() || !attempts.mayRetry(attempt, error)) {
                    throw error;
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
    private SendAttempts newAttempts(Message message) throws MessagingException {
        if (closed.get()) {
            throw new SendFailedException("producer is closed", message.logicTopic(), null, null);
        }
        PlatformConfig snapshot = config.current();
        try {
            Map<String, String> properties = stamp.properties(message);
            boolean stressTest = ContextStamp.marksStressTest(properties);
            return new SendAttempts(SendValidator.check(snapshot, message, stressTest), message, properties, stressTest, snapshot);
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
            onClose.accept(this);
        }
    }

    /**
     * One attempt of one send, on one route.
     *
     * @param delayId for a delayed message, the id of its record at the delay server; null otherwise
     */
    private record Attempt(String logicTopic, RouteLease lease, PhysicalMessage physical, String delayId, long startNanos) {
        String cluster() {
            return lease.route().cluster();
        }

        SendResult result(BoundSendResult sent) {
            Optional<String> ticket = Optional.ofNullable(delayId).map(id -> new DelayTicket(id, cluster()).toString());
            return new SendResult(sent.messageId(), logicTopic, cluster(), sent.topic(), sent.queueId(), sent.queueOffset(),
                    ticket);
        }
    }

    @FunctionalInterface
    private interface AttemptSender {
        BoundSendResult send(Attempt attempt) throws MessagingException;
    }

    /** The attempts of one send: which clusters were tried, and the outcome fed back to the chooser. */
    private final class SendAttempts {
        final LogicTopicConfig topic;
        private final Message message;
        /** Stamped on the sender's thread: an async or throttled attempt runs on another. */
        private final Map<String, String> properties;
        /** Stress-test traffic, sent to each route's shadow topic as named by this snapshot; null for production traffic. */
        private final StressTestSettings shadows;
        private final Set<String> tried = new HashSet<>(4);
        /** From the snapshot the send was validated against, like everything else about it. */
        private final int retries;
        private final String delayTopic;
        /** One id for every attempt, so whichever cluster stores the record, the id is the one reported. */
        private final String delayId;

        SendAttempts(LogicTopicConfig topic, Message message, Map<String, String> properties, boolean stressTest,
                     PlatformConfig snapshot) {
            this.topic = topic;
            this.message = message;
            this.properties = properties;
            this.shadows = stressTest ? snapshot.stressTest() : null;
            this.retries = snapshot.producer().retries();
            this.delayTopic = snapshot.delay().internalTopic();
            this.delayId = message.deliverAt().map(at -> DelayProtocol.newId(at.toEpochMilli())).orElse(null);
        }

        Attempt next() throws MessagingException {
            RouteLease lease = chooser.choose(topic, message.shardingKey(), tried).orElseThrow(() -> new SendFailedException(
                    tried.isEmpty() ? "no cluster of this logic topic can take sends now"
                            : "every cluster of this logic topic failed: " + tried, message.logicTopic(), null, null));
            TopicRoute route = lease.route();
            tried.add(route.cluster());
            PhysicalMessage physical = delayId != null ? DelayProtocol.schedule(message, properties, delayTopic, delayId)
                    : new PhysicalMessage(physicalTopic(route), message.body(), message.keys(), message.tag(),
                            properties, message.shardingKey());
            return new Attempt(message.logicTopic(), lease, physical, delayId, System.nanoTime());
        }

        /** Where on {@code route} the message goes: its physical topic, or its shadow topic for stress-test traffic. */
        private String physicalTopic(TopicRoute route) {
            return shadows == null ? route.physicalTopic() : shadows.shadowTopicOf(route);
        }

        SendResult succeeded(Attempt attempt, BoundSendResult sent) {
            long nanos = System.nanoTime() - attempt.startNanos();
            attempt.lease().succeeded(nanos);
            metrics.sendCompleted(message.logicTopic(), attempt.cluster(), true, nanos, shadows != null);
            return attempt.result(sent);
        }

        MessagingException failed(Attempt attempt, Throwable failure) {
            MessagingException error = Errors.withLogicTopic(failure, message.logicTopic(), attempt.cluster());
            if (error instanceof SendFailedException) {
                attempt.lease().failed();
            } else {
                attempt.lease().ignored();
            }
            metrics.sendCompleted(message.logicTopic(), attempt.cluster(), false, System.nanoTime() - attempt.startNanos(),
                    shadows != null);
            return error;
        }

        boolean mayRetry(Attempt failed, MessagingException error) {
            boolean retry = error instanceof SendFailedException && tried.size() < topic.routes().size()
                    && tried.size() <= retries;
            if (retry) {
                metrics.failedOver(message.logicTopic(), failed.cluster());
                log.debug("retrying on another cluster after: {}", error.getMessage());
            }
            return retry;
        }
    }
}
