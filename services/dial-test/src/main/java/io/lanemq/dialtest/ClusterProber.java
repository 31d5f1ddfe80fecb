package io.lanemq.dialtest;

import io.lanemq.support.LogThrottle;
import io.lanemq.support.NamedThreads;
import io.lanemq.support.Ticker;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the probes of one name server's brokers: for every broker and every kind, a lane paced at the
 * {@link ProbeRate} (the configured rate, raised step by step in stress mode), round-robin over that broker's probe
 * queues.
 *
 * <p>Probes go to explicit queues with the raw {@code DefaultMQProducer.send(msg, MessageQueue)}, bypassing the
 * SDK's logic-topic routing and failover on purpose: the dial test measures each broker, and routing would hide a
 * bad broker behind a good one. One producer per name server, with its own {@code instanceName} (RocketMQ caches
 * client instances per client id; two clusters must not share one) and a producer group unique to the run, so the
 * broker's transaction check-backs come to this process and no other.
 *
 * <p>One pacing thread ({@code lanemq-dialtest-sender-<label>}) issues asynchronous sends; RocketMQ's callback
 * threads report the outcomes. If the thread falls behind by more than a second of probes, the backlog is dropped
 * rather than sent in a burst, and counted ({@link ProbePacer}, {@link DialTestMetrics#PROBES_DROPPED}).
 */
final class ClusterProber implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterProber.class);
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** The broker of the lanes of a name server not reached yet ({@link #probeUnreached()}). */
    static final String UNREACHED = "unreached";

    private final String label;
    private final DialTestOptions config;
    private final Reconciler reconciler;
    private final Ticker ticker;
    private final InstantSource wallClock;
    private final ProbeRate rate;
    private final String ackHost;
    private final int ackPort;
    private final AtomicLong sequences;
    private final TransactionMQProducer producer;
    private final Map<ProbeKind, ProbeSender> senders = new EnumMap<>(ProbeKind.class);
    private final List<Lane> lanes = new CopyOnWriteArrayList<>();
    private final Set<String> brokers = ConcurrentHashMap.newKeySet();
    private final LogThrottle failures;
    private final Thread pacer;
    private volatile boolean running;

    ClusterProber(String label, String nameServer, String instanceName, DialTestOptions config, Reconciler reconciler,
                  InetSocketAddress ackAddress, AtomicLong sequences, ProbeRate rate, Ticker ticker, InstantSource wallClock) {
        this.label = label;
        this.rate = rate;
        this.config = config;
        this.reconciler = reconciler;
        this.ticker = ticker;
        this.wallClock = wallClock;
        this.ackHost = ackAddress.getAddress().getHostAddress();
        this.ackPort = ackAddress.getPort();
        this.sequences = sequences;
        this.failures = LogThrottle.every(Duration.ofSeconds(10), ticker);
        producer = new TransactionMQProducer("lanemq-dialtest-" + Long.toHexString(reconciler.runId()) + "-" + label);
        producer.setNamesrvAddr(nameServer);
        producer.setInstanceName(instanceName);
        producer.setVipChannelEnabled(false);
        producer.setSendMsgTimeout((int) config.sendTimeout().toMillis());
        producer.setRetryTimesWhenSendAsyncFailed(0);
        // The configured body size is what travels: no compression of the zero padding.
        producer.setCompressMsgBodyOverHowmuch(Integer.MAX_VALUE);
        producer.setPollNameServerInterval(5_000);
        producer.setHeartbeatBrokerInterval(5_000);
        producer.setTransactionListener(new ProbeTransactionListener(reconciler.runId()));
        long timeout = config.sendTimeout().toMillis();
        register(new NormalProbeSender(producer, timeout));
        register(new TimerProbeSender(producer, timeout, config.delay().toMillis(), wallClock));
        register(new TransactionalProbeSender(producer, timeout, config.checkBackAllowance().toNanos()));
        config.delayServer().ifPresent(target ->
            register(new DelayServerProbeSender(producer, timeout, config.delay().toMillis(), wallClock, target)));
        this.pacer = NamedThreads.daemon("lanemq-dialtest-sender-" + label, this::pace);
    }

    private void register(ProbeSender sender) {
        senders.put(sender.kind(), sender);
    }

    /** Starts the producer; probing begins with {@link #startProbing()}. */
    ClusterProber start() throws MQClientException {
        producer.start();
        return this;
    }

    /**
     * Until this name server's brokers are known (an attempt to reach it failed), a lane per kind whose probes are
     * counted as failed sends as they come due, under cluster {@code label} and broker {@value #UNREACHED}: the table,
     * the meters and the dashboards show the IDC failing instead of showing nothing. Replaced by the brokers' lanes
     * when {@link #addTargets} first gets some.
     */
    synchronized void probeUnreached() {
        if (brokers.isEmpty() && lanes.isEmpty()) {
            for (ProbeKind kind : brokerKinds()) {
                lanes.add(new Lane(null, senders.get(kind), reconciler.lane(new LaneKey(label, UNREACHED, kind)),
                    ticker.read()));
            }
        }
    }

    /** Adds lanes for brokers not probed yet; returns the names of the brokers added. */
    synchronized List<String> addTargets(List<BrokerTarget> targets) {
        if (!targets.isEmpty()) {
            lanes.removeIf(lane -> lane.target == null);
        }
        List<String> added = new ArrayList<>();
        for (BrokerTarget target : targets) {
            if (brokers.add(target.broker())) {
                for (ProbeKind kind : brokerKinds()) {
                    lanes.add(new Lane(target, senders.get(kind),
                        reconciler.lane(new LaneKey(target.cluster(), target.broker(), kind)), ticker.read()));
                }
                added.add(target.broker());
            }
        }
        return added;
    }

    private List<ProbeKind> brokerKinds() {
        return config.kinds().stream().filter(ProbeKind::perBroker).toList();
    }

    void startProbing() {
        running = true;
        long now = ticker.read();
        lanes.forEach(l -> l.pacer.restart(now));
        pacer.start();
    }

    /** Stops sending and waits for the pacing thread; sends in flight still complete. */
    void stopProbing() {
        running = false;
        if (pacer.isAlive()) {
            LockSupport.unpark(pacer);
            try {
                pacer.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void pace() {
        double pacedRate = rate.get();
        while (running) {
            long now = ticker.read();
            double current = rate.get();
            if (current != pacedRate) {
                // The new rate counts from now: no burst to catch up with it, no gap either.
                pacedRate = current;
                lanes.forEach(l -> l.pacer.restart(now));
            }
            long nextDue = now + MAX_PARK_NANOS;
            for (Lane lane : lanes) {
                long due = lane.pacer.dueCount(now, pacedRate, lane.stats::dropped);
                while (running && lane.pacer.issuedCount() < due) {
                    sendOne(lane);
                    lane.pacer.issued();
                }
                nextDue = Math.min(nextDue, lane.pacer.nextDueNanos(pacedRate));
            }
            long wait = nextDue - ticker.read();
            if (wait > 0) {
                LockSupport.parkNanos(wait); // pacing the probe rate, not waiting for an outcome
            }
        }
    }

    private void sendOne(Lane lane) {
        long sequence = sequences.incrementAndGet();
        if (lane.target == null) {
            failed(lane, sequence, false, new DialTestException("name server " + label + " has not answered since the "
                + "start; its brokers are unknown"));
            return;
        }
        long laneSequence = lane.pacer.issuedCount();
        boolean tracked = config.samplingRatio() >= 1.0 || ThreadLocalRandom.current().nextDouble() < config.samplingRatio();
        ProbeSender sender = lane.sender;
        BrokerTarget target = lane.target;
        MessageQueue queue = target.queues().get((int) (laneSequence % target.queues().size()));
        long sendNanos = ticker.read();
        byte[] body = new ProbeBody(ackHost, ackPort, reconciler.runId(), sequence, sender.kind(), tracked,
            wallClock.millis(), sender.delayMillis(), target.cluster(), target.broker()).encode(config.bodySize());
        Message message = new Message(config.probeTopic(), sender.kind().label(), body);
        if (tracked) {
            reconciler.track(sequence, lane.stats, sendNanos, TimeUnit.MILLISECONDS.toNanos(sender.delayMillis()),
                sender.allowanceNanos(laneSequence));
        }
        SendCallback callback = new SendCallback() {
            @Override
            public void onSuccess(SendResult result) {
                reconciler.sent(lane.stats);
            }

            @Override
            public void onException(Throwable e) {
                failed(lane, sequence, tracked, e);
            }
        };
        try {
            sender.send(message, queue, laneSequence, callback);
        } catch (Exception e) {
            failed(lane, sequence, tracked, e);
        }
    }

    private void failed(Lane lane, long sequence, boolean tracked, Throwable e) {
        reconciler.sendFailed(lane.stats, sequence, tracked, brokerAnswered(e));
        failures.warn(LOG, lane.stats.key().toString(), "probe send to {} failed: {}", lane.stats.key(), e.toString());
    }

    /**
     * Whether the broker itself refused the send (an error code in its answer: busy, no permission, ...), as
     * opposed to no answer at all (a timeout, a refused or broken connection): only the latter may mean it cannot
     * be reached, in which case the {@link Reconciler} does not count its pending probes lost yet.
     */
    static boolean brokerAnswered(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof MQBrokerException) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        stopProbing();
        producer.shutdown();
    }

    /** One broker and kind (no broker while its name server is not reached): its pacing (pacing thread only) and its counters. */
    private static final class Lane {
        final BrokerTarget target;
        final ProbeSender sender;
        final LaneStats stats;
        final ProbePacer pacer;

        Lane(BrokerTarget target, ProbeSender sender, LaneStats stats, long startNanos) {
            this.target = target;
            this.sender = sender;
            this.stats = stats;
            this.pacer = new ProbePacer(startNanos);
        }
    }
}
