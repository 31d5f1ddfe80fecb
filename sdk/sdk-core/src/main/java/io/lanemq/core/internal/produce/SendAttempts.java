package io.lanemq.core.internal.produce;

import io.lanemq.api.Message;
import io.lanemq.api.MessagingException;
import io.lanemq.api.SendFailedException;
import io.lanemq.api.SendResult;
import io.lanemq.api.spi.BoundSendResult;
import io.lanemq.api.spi.PhysicalMessage;
import io.lanemq.config.BatchConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.StressTestConfig;
import io.lanemq.config.TopicRoute;
import io.lanemq.core.delay.DelayProtocol;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.core.internal.routing.ClusterChooser;
import io.lanemq.core.internal.routing.RouteLease;
import io.lanemq.support.Ticker;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The attempts of one send: which clusters were tried, and the outcome of each fed back to the chooser once.
 * Everything about the send comes from the one snapshot it was validated against. Not thread-safe: the
 * caller serialises its calls ({@link FailoverSend} holds its lock).
 */
final class SendAttempts {
    private static final Logger log = LoggerFactory.getLogger(SendAttempts.class);

    final LogicTopicConfig topic;
    private final Message message;
    private final ClusterChooser chooser;
    private final SdkMetrics metrics;
    private final ClusterPulse pulse;
    /** The producer's clock: attempt starts, latencies and the failover's deadlines all read it. */
    private final Ticker ticker;
    /** Stamped on the sender's thread: an async or throttled attempt runs on another. */
    private final Map<String, String> properties;
    /** Stress-test traffic, sent to each route's shadow topic as named by this snapshot; null for production traffic. */
    private final StressTestConfig shadows;
    private final Set<String> tried = new HashSet<>(4);
    /** Why each tried cluster did not take the send, in the order they failed: a failed send names each one and why. */
    private final Map<String, String> why = new LinkedHashMap<>(4);
    private final int retries;
    private final Duration sendTimeout;
    private final Duration failoverAfter;
    private final String delayTopic;
    /** How this send is gathered with others: the topic's rule, or none for a delayed message (see {@link #batch}). */
    private final BatchConfig batch;
    private final long maxHeldBytes;
    /** One id for every attempt, so whichever cluster stores the record, the id is the one reported. */
    private final String delayId;
    /**
     * One message id for every attempt: a copy stored by an attempt given up on (its answer came late) carries the
     * id of the copy that was acknowledged, so a consumer can tell it is the same message (deduplication).
     */
    private final Optional<String> messageId;
    /** Clusters the producer holds out of its rotation (they refused it), with why: never tried, named in a failure. */
    private final Map<String, String> outOfRotation;

    SendAttempts(SendRouting routing, LogicTopicConfig topic, Message message, Map<String, String> properties,
                 PlatformConfig snapshot, Optional<String> messageId) {
        this(routing, topic, message, properties, snapshot, messageId, Map.of());
    }

    /**
     * @param topic      the message's logic topic, as validated against {@code snapshot}
     * @param properties the message's stamped properties; a stress-test mark among them sends it to the shadow topics
     */
    SendAttempts(SendRouting routing, LogicTopicConfig topic, Message message, Map<String, String> properties,
                 PlatformConfig snapshot, Optional<String> messageId, Map<String, String> outOfRotation) {
        this.topic = topic;
        this.outOfRotation = outOfRotation;
        this.messageId = messageId;
        this.message = message;
        this.properties = properties;
        this.chooser = routing.chooser();
        this.metrics = routing.metrics();
        this.pulse = routing.pulse();
        this.ticker = routing.ticker();
        this.shadows = ContextStamp.marksStressTest(properties) ? snapshot.stressTest() : null;
        this.retries = snapshot.producer().retries();
        this.sendTimeout = snapshot.producer().sendTimeout();
        this.failoverAfter = snapshot.producer().failoverAfter();
        this.delayTopic = snapshot.delay().internalTopic();
        this.delayId = message.deliverAt().map(at -> DelayProtocol.newId(at.toEpochMilli())).orElse(null);
        this.batch = delayId != null ? BatchConfig.OFF : topic.batchOr(snapshot.producer());
        this.maxHeldBytes = snapshot.producer().maxHeldBytes();
    }

    /**
     * The gathering this send's attempts follow. A delayed message is never gathered: it goes to the delay
     * server's topic, and its cancel must find it by the id of its own send.
     */
    BatchConfig batch() {
        return batch;
    }

    long maxHeldBytes() {
        return maxHeldBytes;
    }

    /** The body bytes this send holds while unanswered. */
    long bytes() {
        return message.body().length;
    }

    /** Now, on the producer's ticker. */
    long now() {
        return ticker.read();
    }

    Duration sendTimeout() {
        return sendTimeout;
    }

    Duration failoverAfter() {
        return failoverAfter;
    }

    String logicTopic() {
        return message.logicTopic();
    }

    /**
     * Each cluster tried and why it did not take the send ({@code cluster-a: reason; cluster-b: reason}), for the
     * send's failure: with every cluster unreachable, the application learns what is wrong with each from one error.
     */
    String whyTried() {
        StringBuilder text = new StringBuilder();
        why.forEach((cluster, reason) -> text.append(text.isEmpty() ? "" : "; ").append(cluster).append(": ").append(reason));
        tried.stream().filter(cluster -> !why.containsKey(cluster)).sorted().forEach(cluster ->
                text.append(text.isEmpty() ? "" : "; ").append(cluster).append(": no answer yet"));
        outOfRotation.forEach((cluster, reason) -> {
            if (topic.route(cluster).isPresent() && !tried.contains(cluster)) {
                text.append(text.isEmpty() ? "" : "; ").append(cluster).append(": ").append(reason);
            }
        });
        return text.toString();
    }

    /**
     * The send's failure once no attempt is left: {@code last} alone when one cluster was tried or the failure is not one
     * a retry could cure, else one error naming every cluster tried and why (the last one is its cause).
     */
    MessagingException finalFailure(MessagingException last) {
        if (!(last instanceof SendFailedException) || why.size() < 2) {
            return last;
        }
        return new SendFailedException("every cluster tried failed: " + whyTried(), message.logicTopic(), null, last);
    }

    Attempt next() throws MessagingException {
        Set<String> excluded = tried;
        if (!outOfRotation.isEmpty()) {
            excluded = new HashSet<>(tried);
            excluded.addAll(outOfRotation.keySet());
        }
        RouteLease lease = chooser.choose(topic, message.shardingKey(), excluded).orElseThrow(() -> new SendFailedException(
                tried.isEmpty() && outOfRotation.isEmpty() ? "no cluster of this logic topic can take sends now"
                        : "every cluster of this logic topic failed: " + whyTried(), message.logicTopic(), null, null));
        TopicRoute route = lease.route();
        tried.add(route.cluster());
        PhysicalMessage physical = delayId != null ? DelayProtocol.schedule(message, properties, delayTopic, delayId)
                : new PhysicalMessage(physicalTopic(route), message.body(), message.keys(), message.tag(),
                        properties, message.shardingKey(), messageId);
        return new Attempt(message.logicTopic(), lease, physical, delayId, ticker.read(), new AtomicBoolean());
    }

    /** Where on {@code route} the message goes: its physical topic, or its shadow topic for stress-test traffic. */
    private String physicalTopic(TopicRoute route) {
        return shadows == null ? route.physicalTopic() : shadows.shadowTopicOf(route);
    }

    /**
     * The attempt's message is stored. {@code forRequest}: whether this answer speaks for its cluster's request (false
     * for the other messages of a gathered batch, whose request the first one already reported to the failover).
     */
    SendResult succeeded(Attempt attempt, BoundSendResult sent, boolean forRequest) {
        long nanos = ticker.read() - attempt.startNanos();
        if (forRequest) {
            pulse.answered(attempt.cluster(), nanos, quickNanos());
        }
        if (attempt.judge()) {
            if (forRequest) {
                attempt.lease().succeeded(nanos);
            } else {
                attempt.lease().ignored();
            }
        }
        metrics.sendCompleted(message.logicTopic(), attempt.cluster(), true, nanos, shadows != null);
        return attempt.result(sent);
    }

    /** The attempt failed; only an answer that speaks for its request ({@code forRequest}) counts against the cluster. */
    MessagingException failed(Attempt attempt, Throwable failure, boolean forRequest) {
        // An attempt withdrawn before it left (its send was decided meanwhile) says nothing of its cluster.
        boolean counts = forRequest && !(failure instanceof CancellationException);
        MessagingException error = Errors.withLogicTopic(failure, message.logicTopic(), attempt.cluster());
        if (counts) {
            why.put(attempt.cluster(), error.reason());
        }
        if (attempt.judge()) {
            if (counts && error instanceof SendFailedException) {
                attempt.lease().failed();
            } else {
                attempt.lease().ignored();
            }
        }
        metrics.sendCompleted(message.logicTopic(), attempt.cluster(), false, ticker.read() - attempt.startNanos(),
                shadows != null);
        return error;
    }

    /**
     * {@code attempt} went unanswered for too long (see {@link #overdue}): its cluster is judged to have failed
     * now, not when the broker client times out, so the failover stops picking it at once. Its answer may still come.
     */
    SendFailedException unanswered(Attempt attempt) {
        if (attempt.judge()) {
            attempt.lease().failed();
        }
        long waitedMillis = (ticker.read() - attempt.startNanos()) / 1_000_000;
        why.put(attempt.cluster(), "no answer within " + waitedMillis + " ms");
        return new SendFailedException("no answer from cluster " + attempt.cluster() + " within "
                + waitedMillis + " ms while another cluster answered (failoverAfterMs "
                + failoverAfter.toMillis() + ")", message.logicTopic(), attempt.cluster(), null);
    }

    /** An answer this fast proves its cluster, and the host, well: a quarter of {@link #failoverAfter()}. */
    private long quickNanos() {
        return failoverAfter.toNanos() / 4;
    }

    /**
     * Whether {@code attempt}, still unanswered, should be given up on now.
     * <ul>
     *   <li>Another cluster answered quickly since it started, and its own cluster, which answered before, answered
     *       nothing at all since then: its connection is stalled, and it is given up on at {@link #stallNanos}. A lost packet makes
     *       TCP wait for a retransmission (200 ms at least on Linux, doubling on each loss), and every request on
     *       the connection waits with it: under packet loss on one IDC, synchronous senders pile onto that IDC
     *       within milliseconds and would wait out failoverAfterMs together, leaving whole seconds with almost no
     *       sends.</li>
     *   <li>Another cluster answered quickly, its own is answering others: it is given up on at
     *       {@link #failoverAfter()}.</li>
     *   <li>Without that evidence (the whole host may be stalled), or when its cluster had never answered when the
     *       attempt started (cold: its first sends wait for a route and a connection), it is given up on only at half the send
     *       timeout, so a lone sender still fails over. Cold clusters wait that long because giving up on them
     *       stores copies: a burst of sends from a new producer on a busy host (a delay server restarting with
     *       many records due) would be abandoned on its cluster after failoverAfterMs, stored there anyway and
     *       delivered twice; a cluster silent from the start costs a few sends half the send timeout, as each
     *       failure halves its weight.</li>
     * </ul>
     */
    boolean overdue(Attempt attempt, long nowNanos) {
        long waited = nowNanos - attempt.startNanos();
        if (!pulse.otherAnsweredSince(attempt.cluster(), attempt.startNanos()) || !pulse.answeredBefore(attempt.cluster(), attempt.startNanos())) {
            return waited >= lastChanceNanos();
        }
        return waited >= failoverAfter.toNanos()
                || waited >= stallNanos(attempt.cluster()) && pulse.silentSince(attempt.cluster(), attempt.startNanos());
    }

    /**
     * How long an attempt waits on a cluster that answers nothing while another answers: a quarter of
     * {@link #failoverAfter()}, or longer while that cluster's own recent answers have been slow
     * ({@link ClusterPulse#patienceNanos}), never past failoverAfter.
     */
    long stallNanos(String cluster) {
        return pulse.patienceNanos(cluster, quickNanos(), failoverAfter.toNanos());
    }

    /** How long an attempt may go unanswered without evidence against its cluster before it is given up on. */
    long lastChanceNanos() {
        return Math.max(failoverAfter.toNanos(), sendTimeout.toNanos() / 2);
    }

    /** How often an attempt unanswered past {@link #failoverAfter()} is checked again for {@link #overdue}. */
    long recheckNanos() {
        return Math.max(1, quickNanos());
    }

    /**
     * Whether another cluster is left to try after a failure of the kind that may be retried. A weight-0 (drained)
     * cluster takes no sends, retries included, so it does not count.
     */
    boolean canRetry() {
        long weighted = topic.routes().stream().filter(route -> route.weight() > 0).count();
        return tried.size() < weighted && tried.size() <= retries;
    }

    boolean mayRetry(Attempt failed, MessagingException error) {
        boolean retry = error instanceof SendFailedException && canRetry();
        if (retry) {
            metrics.failedOver(message.logicTopic(), failed.cluster());
            log.debug("retrying on another cluster after: {}", error.getMessage());
        }
        return retry;
    }
}
