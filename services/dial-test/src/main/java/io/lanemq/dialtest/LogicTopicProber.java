package io.lanemq.dialtest;

import io.lanemq.api.ClientHealth;
import io.lanemq.api.ClientOptions;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Consumer;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.SendResult;
import io.lanemq.api.Subscription;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.TopicRoute;
import io.lanemq.core.client.CoreMessagingClient;
import io.lanemq.support.LogThrottle;
import io.lanemq.support.NamedThreads;
import io.lanemq.support.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Probes a logic topic as an application uses it: a {@code MessagingClient} on the platform configuration sends
 * through the SDK's routing and failover (the weights in force, both IDCs) and consumes through the SDK; each tracked
 * probe is acked over the same TCP channel as the broker probes ({@link ProbeAcks}) and reconciled by the same
 * {@link Reconciler}.
 *
 * <p>A probe's lane is the cluster that stored it ({@link SendResult#cluster()}), known once the send completed
 * ({@link Reconciler#routed}), so the rows show the split the routing made against the weights in force
 * ({@link #weights()}): a drained cluster shows as a moved split, not as loss. A send no cluster accepted counts as a
 * send failure on the lane {@value #UNROUTED}, as do the probes the sender gave up. While the client's routing judges a
 * cluster down, the probes it stored before get their patience again ({@link Reconciler#unanswered}), as a broker probe's
 * do while its broker does not answer: they arrive after the heal, they are not lost.
 *
 * <p>One pacing thread ({@code lanemq-dialtest-sender-logic}) issues asynchronous sends at the {@link ProbeRate}; the
 * SDK's threads complete them and run the listener. {@link #close()} stops the thread and closes the client.
 */
final class LogicTopicProber implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LogicTopicProber.class);
    /** The cluster of the lane of probes no cluster stored (send failures, drops). */
    static final String UNROUTED = "unrouted";
    /** The application name of the dial test's client: its SDK meters and its consumer's client id carry it. */
    static final String APPLICATION = "lanemq-dialtest";
    /** The broker field of logic-topic probe bodies: the consumer's meters need a name, there is no broker. */
    private static final String BODY_BROKER = "sdk";
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** How often the routing's judgement of the clusters is read: well within any grace. */
    private static final long HEALTH_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final DialTestOptions config;
    private final DialTestOptions.LogicTopicTarget target;
    private final Reconciler reconciler;
    private final ProbeRate rate;
    private final Ticker ticker;
    private final InstantSource wallClock;
    private final String ackHost;
    private final int ackPort;
    private final AtomicLong sequences;
    private final LaneStats unrouted;
    private final LogThrottle failures;
    private final Thread pacerThread;
    private final ProbePacer pacer;
    private CoreMessagingClient client;
    private Producer producer;
    private Consumer consumer;
    private volatile boolean running;

    LogicTopicProber(DialTestOptions config, Reconciler reconciler, InetSocketAddress ackAddress, AtomicLong sequences,
                     ProbeRate rate, Ticker ticker, InstantSource wallClock) {
        this.config = config;
        this.target = config.logicTopic().orElseThrow(() -> new IllegalArgumentException("no logic topic to probe"));
        this.reconciler = reconciler;
        this.rate = rate;
        this.ticker = ticker;
        this.wallClock = wallClock;
        this.ackHost = ackAddress.getAddress().getHostAddress();
        this.ackPort = ackAddress.getPort();
        this.sequences = sequences;
        this.unrouted = reconciler.lane(lane(UNROUTED));
        this.failures = LogThrottle.every(Duration.ofSeconds(10), ticker);
        this.pacer = new ProbePacer(ticker.read());
        this.pacerThread = NamedThreads.daemon("lanemq-dialtest-sender-logic", this::pace);
    }

    /**
     * Starts the client (reporting its SDK meters to {@code registry}), its producer and its subscription, whose
     * listener acks the probes with {@code acks}; probing begins with {@link #startProbing()}.
     *
     * @throws MessagingException the configuration cannot be read, or does not route the logic topic or declare its group
     */
    LogicTopicProber start(MeterRegistry registry, AckSender acks, DialTestMetrics metrics) throws MessagingException {
        client = CoreMessagingClient.start(ClientOptions.builder(APPLICATION).configLocation(target.configLocation())
            .build(), registry);
        producer = client.createProducer(ProducerOptions.defaults());
        ProbeAcks probeAcks = new ProbeAcks(config, acks, metrics, wallClock, target.logicTopic());
        consumer = client.subscribe(Subscription.builder(target.logicTopic(), target.consumerGroup()).build(),
            message -> consume(probeAcks, message));
        for (String cluster : weights().keySet()) {
            reconciler.lane(lane(cluster));
            metrics.logicTopicWeight(target.logicTopic(), cluster, () -> weightShare(cluster));
        }
        return this;
    }

    private static ConsumeResult consume(ProbeAcks probeAcks, ReceivedMessage message) {
        probeAcks.ack(List.of(new ProbeAcks.Delivery(message.body(), message.deliveryAttempt() - 1)));
        return ConsumeResult.SUCCESS;
    }

    /** The dial test's client: what the configuration-propagation probe reads the configuration in force from. */
    CoreMessagingClient client() {
        return client;
    }

    /** The weights in force for the probed logic topic in the client's configuration, by cluster, in route order. */
    Map<String, Integer> weights() {
        Map<String, Integer> weights = new LinkedHashMap<>();
        client.config().current().topic(target.logicTopic()).map(LogicTopicConfig::routes).orElse(List.of())
            .forEach(route -> weights.put(route.cluster(), route.weight()));
        return weights;
    }

    private double weightShare(String cluster) {
        List<TopicRoute> routes = client.config().current().topic(target.logicTopic()).map(LogicTopicConfig::routes)
            .orElse(List.of());
        int total = routes.stream().mapToInt(TopicRoute::weight).sum();
        return total == 0 ? 0 : routes.stream().filter(r -> r.cluster().equals(cluster)).mapToInt(TopicRoute::weight)
            .sum() / (double) total;
    }

    void startProbing() {
        running = true;
        pacer.restart(ticker.read());
        pacerThread.start();
    }

    /** Stops sending and waits for the pacing thread; sends in flight still complete. */
    void stopProbing() {
        running = false;
        if (pacerThread.isAlive()) {
            LockSupport.unpark(pacerThread);
            try {
                pacerThread.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void pace() {
        double pacedRate = rate.get();
        long nextHealth = ticker.read();
        while (running) {
            long now = ticker.read();
            double current = rate.get();
            if (current != pacedRate) {
                pacedRate = current;
                pacer.restart(now);
            }
            if (now - nextHealth >= 0) {
                holdProbesOfDownClusters();
                nextHealth = now + HEALTH_EVERY_NANOS;
            }
            long due = pacer.dueCount(now, pacedRate, unrouted::dropped);
            while (running && pacer.issuedCount() < due) {
                sendOne();
                pacer.issued();
            }
            long wait = Math.min(now + MAX_PARK_NANOS, pacer.nextDueNanos(pacedRate)) - ticker.read();
            if (wait > 0) {
                LockSupport.parkNanos(wait); // pacing the probe rate, not waiting for an outcome
            }
        }
    }

    // What the routing took out of rotation cannot deliver what it stored before either, until it is back.
    private void holdProbesOfDownClusters() {
        for (ClientHealth.Cluster cluster : client.health().clusters()) {
            if (cluster.state() == ClientHealth.ClusterState.DOWN) {
                reconciler.unanswered(lane(cluster.name()));
            }
        }
    }

    private void sendOne() {
        long sequence = sequences.incrementAndGet();
        boolean tracked = config.samplingRatio() >= 1.0 || ThreadLocalRandom.current().nextDouble() < config.samplingRatio();
        long sendNanos = ticker.read();
        byte[] body = new ProbeBody(ackHost, ackPort, reconciler.runId(), sequence, ProbeKind.LOGIC_TOPIC, tracked,
            wallClock.millis(), 0, target.logicTopic(), BODY_BROKER).encode(config.bodySize());
        if (tracked) {
            reconciler.trackRouted(sequence, unrouted, sendNanos);
        }
        producer.sendAsync(Message.builder(target.logicTopic()).tag(ProbeKind.LOGIC_TOPIC.label()).body(body).build())
            .whenComplete((result, failure) -> {
                if (failure == null) {
                    reconciler.routed(sequence, reconciler.lane(lane(result.cluster())), tracked);
                } else {
                    // The SDK tried every cluster the routing allowed: nothing stored it, nothing is pending.
                    reconciler.sendFailed(unrouted, sequence, tracked, true);
                    failures.warn(LOG, "logic", "logic-topic probe send to {} failed: {}", target.logicTopic(),
                        failure.toString());
                }
            });
    }

    private LaneKey lane(String cluster) {
        return new LaneKey(cluster, target.logicTopic(), ProbeKind.LOGIC_TOPIC);
    }

    @Override
    public void close() {
        stopProbing();
        if (client != null) {
            client.close(); // closes its producer and consumer
        }
    }
}
