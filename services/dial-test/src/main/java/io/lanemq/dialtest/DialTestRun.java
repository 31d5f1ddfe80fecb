package io.lanemq.dialtest;

import io.lanemq.api.MessagingException;
import io.lanemq.config.ConfigSources;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.service.http.JvmMeters;
import io.lanemq.service.http.Readiness;
import io.lanemq.service.http.ServiceEndpoints;
import io.lanemq.support.NamedThreads;
import io.lanemq.support.Ticker;
import io.lanemq.support.attach.AttachLoop;
import io.lanemq.support.attach.AttachPolicy;
import io.lanemq.support.attach.AttemptBudget;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One dial test run: the ack listener, per name server a prober and a probe consumer, the reconciliation every
 * period, and the metrics endpoint.
 *
 * <pre>{@code
 * try (DialTestRun run = DialTestRun.runner(config).onReport(r -> System.out.print(LiveTable.period(r, 1.0))).start()) {
 *     Thread.sleep(60_000);                    // or wait for Ctrl-C
 *     Report totals = run.stop();              // stops sending, waits for outstanding acks, reconciles
 *     System.out.print(LiveTable.summary(totals, 1.0));
 * }
 * }</pre>
 *
 * <p>A name server that does not answer at the start (its IDC down or silent) stops neither the run nor the other
 * name servers: it is attached in the background with the SDK's attach policy ({@link AttachLoop}), each attempt
 * counted in {@code lanemq.consumer.attach.attempts}, and once an attempt failed its probes count as send failures
 * as they come due (lanes with broker {@value ClusterProber#UNREACHED}) until it answers.
 *
 * <p>With a logic topic to probe ({@link DialTestOptions#logicTopic()}), a {@link LogicTopicProber} probes it through
 * the SDK beside the per-broker probes, reconciled by the same reconciler.
 *
 * <p>Threads: {@code lanemq-dialtest-sender-<label>} and {@code lanemq-dialtest-attach-<label>} per name server,
 * {@code lanemq-dialtest-sender-logic} and the SDK client's own threads with a logic topic,
 * {@code lanemq-dialtest-reconciler},
 * {@code lanemq-dialtest-discovery}, the ack listener's and the metrics server's, and RocketMQ's own. All are
 * stopped by {@link #close()}. {@link #stop()} and {@link #close()} may be called from any thread.
 */
public final class DialTestRun implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DialTestRun.class);
    private static final Duration SETUP_TIMEOUT = Duration.ofSeconds(30);
    /** The SDK's policy: a name server down at the start is probed within seconds of its return. */
    private static final AttachPolicy ATTACH = AttachPolicy.DEFAULT;
    private static final Duration CONSUMER_READY_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration DISCOVERY_INTERVAL = Duration.ofSeconds(30);
    private static final Duration ACK_IDLE_TIMEOUT = Duration.ofMinutes(5);
    private static final int ACK_CONNECTIONS = 16;
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final DialTestOptions config;
    private final Ticker ticker;
    private final InstantSource wallClock;
    private final Consumer<Report> onReport;
    private final PrometheusMeterRegistry registry;
    private final DialTestMetrics metrics;
    private final ProbeRate rate;
    private final Reconciler reconciler;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final List<ClusterProber> probers = new ArrayList<>();
    private final List<ProbeTopicAdmin> admins = new ArrayList<>();
    /** Probes through the SDK, when a logic topic is probed; null otherwise. */
    private LogicTopicProber logicTopicProber;
    /** Probes configuration propagation, when asked; null otherwise. */
    private ConfigPropagationProber configProber;
    private final ConfigPublisher configPublisher;
    /** One per name server, in the configuration's order; set by the start. */
    private List<NameServerAttach> attaching = List.of();
    private final ScheduledExecutorService reconcilerThread;
    private final ScheduledExecutorService discoveryThread;
    private AckListener listener;
    private ServiceEndpoints metricsServer;
    private final Readiness readiness;
    private Report totals;
    private boolean closed;

    private DialTestRun(Runner runner) {
        this.config = runner.config;
        this.ticker = runner.ticker;
        this.wallClock = runner.wallClock;
        this.onReport = runner.onReport;
        this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        this.readiness = runner.readiness;
        this.configPublisher = runner.configPublisher;
        this.metrics = new DialTestMetrics(registry);
        this.rate = runner.rate != null ? runner.rate : new ProbeRate(config.ratePerSecond());
        metrics.targetRate(rate::get);
        long runId = new SecureRandom().nextLong();
        this.reconciler = new Reconciler(runId, ticker, wallClock, config.grace(), config.retention(), metrics);
        this.reconcilerThread = Executors.newSingleThreadScheduledExecutor(NamedThreads.single("lanemq-dialtest-reconciler"));
        this.discoveryThread = Executors.newSingleThreadScheduledExecutor(NamedThreads.single("lanemq-dialtest-discovery"));
    }

    /** A runner of {@code config}: optional hooks, then {@link Runner#start()}. */
    public static Runner runner(DialTestOptions config) {
        return new Runner(config);
    }

    private void startAll(UnaryOperator<AckSender> ackSenderWrapper) throws Exception {
        listener = AckListener.start(config.ackListenAddress(), config.ackSecret(), reconciler, metrics, ticker,
            ACK_CONNECTIONS, ACK_IDLE_TIMEOUT);
        closeables.add(listener);
        if (config.metricsAddress() != null) {
            closeables.add(JvmMeters.bindTo(registry));
            metricsServer = ServiceEndpoints.start("lanemq-dialtest-metrics-http", config.metricsAddress(), registry,
                readiness);
            closeables.add(metricsServer);
            LOG.info("metrics at {}", metricsServer.metricsUri());
        }
        AckSender acks = ackSenderWrapper.apply(new TcpAckSender(config.ackSecret(), ticker));
        closeables.add(acks);
        AtomicLong sequences = new AtomicLong();
        String run = Long.toHexString(reconciler.runId());
        // With the environment tag, as the logic-topic probe's SDK client registers the same meter in this registry.
        SdkMetrics attachMeters = new SdkMetrics(registry, LogicTopicProber.APPLICATION, ConfigSources.deploymentEnvironment());
        AttemptBudget budget = new AttemptBudget(ATTACH, ticker);
        List<NameServerAttach> attaching = new ArrayList<>();
        for (Map.Entry<String, String> nameServer : config.nameServers().entrySet()) {
            String label = nameServer.getKey();
            String instance = "lanemq-dialtest-" + label + "-" + run;
            ProbeTopicAdmin admin = new ProbeTopicAdmin(label, nameServer.getValue(), instance + "-admin", ticker);
            closeables.add(admin);
            admins.add(admin);
            ClusterProber prober = new ClusterProber(label, nameServer.getValue(), instance, config, reconciler,
                listener.address(), sequences, rate, ticker, wallClock);
            closeables.add(prober);
            probers.add(prober.start());
            NameServerAttach attach = new NameServerAttach(label, nameServer.getValue(), instance, admin, prober, acks);
            attaching.add(attach);
            AttachLoop.Outcomes counted = attachMeters.attachOutcomes(config.consumerGroup(), label);
            attach.loop = AttachLoop.start("lanemq-dialtest-attach-" + label, "dial test of name server " + label + " ("
                    + nameServer.getValue() + ")", ATTACH, budget, failure -> true, attach::attempt,
                new AttachLoop.Outcomes() {
                    @Override
                    public void attached() {
                        counted.attached();
                    }

                    @Override
                    public void failed(Exception failure, boolean curable) {
                        counted.failed(failure, curable);
                        // Known unreachable now (not merely slow to answer): its probes count as failed until it attaches.
                        prober.probeUnreached();
                    }
                }, ticker);
            closeables.add(attach.loop);
        }
        this.attaching = List.copyOf(attaching);
        if (config.kinds().contains(ProbeKind.LOGIC_TOPIC)) {
            logicTopicProber = new LogicTopicProber(config, reconciler, listener.address(), sequences, rate, ticker,
                wallClock);
            closeables.add(logicTopicProber);
            try {
                logicTopicProber.start(registry, acks, metrics);
            } catch (MessagingException e) {
                throw new DialTestException("cannot probe logic topic " + config.logicTopic().orElseThrow().logicTopic()
                    + " through the SDK: " + e.getMessage(), e);
            }
            reconciler.weightsFrom(logicTopicProber::weights);
        }
        if (config.kinds().contains(ProbeKind.CONFIG_PROPAGATION)) {
            if (configPublisher == null) {
                throw new DialTestException("the config_propagation kind needs a publisher of the probe key's changes "
                    + "(the embedded default has one)");
            }
            LogicTopicProber client = logicTopicProber;
            configProber = new ConfigPropagationProber(config.configProbeKey().orElseThrow(), configPublisher,
                () -> client.client().config(), () -> client.client().health().configuration().lastApplied(), reconciler,
                sequences, config.period(), config.grace(), ticker, wallClock);
        }
        // The name servers are attached side by side; one that has not answered by then is probed once it does.
        long deadline = ticker.read() + ATTACH.startWait().toNanos();
        for (NameServerAttach attach : attaching) {
            attach.loop.awaitFirstAnswer(Duration.ofNanos(Math.max(0, deadline - ticker.read())));
        }
        reconciler.periodStartsNow();
        probers.forEach(ClusterProber::startProbing);
        if (logicTopicProber != null) {
            logicTopicProber.startProbing();
        }
        if (configProber != null) {
            configProber.startProbing();
        }
        long periodMillis = config.period().toMillis();
        reconcilerThread.scheduleAtFixedRate(this::reconcileSafely, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
        long discoveryMillis = DISCOVERY_INTERVAL.toMillis();
        discoveryThread.scheduleWithFixedDelay(this::rediscover, discoveryMillis, discoveryMillis, TimeUnit.MILLISECONDS);
        readiness.serving();
    }

    /**
     * Per name server not attached yet (it did not answer at the start; its probes count as failed meanwhile): why,
     * since when. Empty when every name server's brokers are probed.
     */
    public List<String> unreachedNameServers() {
        List<String> lines = new ArrayList<>();
        for (NameServerAttach attach : attaching) {
            attach.loop.reason().ifPresent(reason -> lines.add("name server " + attach.label + ": " + reason));
        }
        return lines;
    }

    /**
     * Attaching one name server: its probe topic ensured, its brokers found and a probe consumer started. Each attempt
     * starts a consumer of its own (a RocketMQ consumer whose start failed cannot start again).
     */
    private final class NameServerAttach {
        final String label;
        final String nameServer;
        final String instance;
        final ProbeTopicAdmin admin;
        final ClusterProber prober;
        final AckSender acks;
        AttachLoop loop;
        /** Set by the attempt that succeeded. */
        volatile ProbeConsumer consumer;
        volatile List<String> brokers = List.of();

        NameServerAttach(String label, String nameServer, String instance, ProbeTopicAdmin admin, ClusterProber prober,
                         AckSender acks) {
            this.label = label;
            this.nameServer = nameServer;
            this.instance = instance;
            this.admin = admin;
            this.prober = prober;
            this.acks = acks;
        }

        void attempt() throws Exception {
            List<BrokerTarget> targets = admin.ensureProbeTopic(config.probeTopic(), config.queuesPerBroker(), SETUP_TIMEOUT);
            ProbeConsumer started = new ProbeConsumer(label, nameServer, instance, config, acks, metrics, wallClock);
            try {
                started.start();
            } catch (Exception e) {
                started.close();
                throw e;
            }
            synchronized (DialTestRun.this) {
                if (closed) {
                    started.close();
                    return;
                }
                closeables.add(started);
            }
            targets.stream().map(BrokerTarget::cluster).distinct().forEach(metrics::consumerCluster);
            awaitQueues(started, targets.stream().map(BrokerTarget::broker).toList());
            brokers = prober.addTargets(targets);
            consumer = started;
            LOG.info("probing {} ({}): brokers {}", label, nameServer, brokers);
        }
    }

    // Probes sent before the consumer holds its queues would wait for the rebalance and distort the latency, or be
    // skipped by a consumer that starts from the last offset: a name server's brokers are probed once it holds them.
    private void awaitQueues(ProbeConsumer consumer, List<String> brokers) {
        long deadline = ticker.read() + CONSUMER_READY_TIMEOUT.toNanos();
        while (!consumer.holdsQueuesOf(brokers)) {
            if (ticker.read() - deadline > 0) {
                LOG.info("the probe consumer holds no queue of some of {} after {} s; other consumers of group {} "
                    + "may hold them", brokers, CONSUMER_READY_TIMEOUT.toSeconds(), config.consumerGroup());
                return;
            }
            LockSupport.parkNanos(POLL_NANOS); // polling the consumer's rebalance, which has no callback
        }
    }

    private void reconcileSafely() {
        try {
            onReport.accept(reconciler.reconcile());
        } catch (RuntimeException e) {
            LOG.error("reconciliation failed; trying again next period", e);
        }
    }

    private void rediscover() {
        for (int i = 0; i < admins.size(); i++) {
            if (!attaching.get(i).loop.attached()) {
                continue; // its attach loop finds its brokers
            }
            try {
                List<String> added = probers.get(i).addTargets(admins.get(i).ensureProbeTopic(config.probeTopic(),
                    config.queuesPerBroker(), SETUP_TIMEOUT));
                if (!added.isEmpty()) {
                    LOG.info("new brokers found, now probed too: {}", added);
                }
            } catch (RuntimeException e) {
                LOG.warn("broker discovery failed; the known brokers are still probed: {}", e.getMessage());
            }
        }
    }

    /** This run's id, carried in every probe and ack. */
    public long runId() {
        return reconciler.runId();
    }

    /** Where acks are received. */
    public InetSocketAddress ackAddress() {
        return listener.address();
    }

    /** The {@code /metrics} URI, when the configuration asked for one. */
    public Optional<URI> metricsUri() {
        return Optional.ofNullable(metricsServer).map(ServiceEndpoints::metricsUri);
    }

    /** The registry behind the metrics endpoint. */
    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /**
     * Stops sending, waits until every tracked probe is acked or past its deadline, reconciles a last time (that
     * period goes to the report listener too) and returns the totals of the run. Idempotent.
     */
    public Report stop() {
        return stop(true);
    }

    /**
     * Like {@link #stop()}; without {@code waitForAcks} the probes still in flight stay pending in the totals,
     * neither acked nor lost (for when the brokers are going away too, as on Ctrl-C of the embedded stack).
     */
    public synchronized Report stop(boolean waitForAcks) {
        if (totals != null) {
            return totals;
        }
        readiness.draining();
        stopProbing();
        if (waitForAcks) {
            drain();
        }
        reconcilerThread.shutdown();
        discoveryThread.shutdownNow();
        try {
            reconcilerThread.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        reconcileSafely();
        totals = reconciler.totals();
        return totals;
    }

    private void stopProbing() {
        probers.forEach(ClusterProber::stopProbing);
        if (configProber != null) {
            configProber.stopProbing();
        }
        if (logicTopicProber != null) {
            logicTopicProber.stopProbing();
        }
    }

    // In-flight sends finish within the send timeout; then each pending probe is acked or reaches its deadline.
    private void drain() {
        long sendsSettled = ticker.read() + config.sendTimeout().toNanos();
        while (true) {
            long now = ticker.read();
            OptionalLong latest = reconciler.latestDeadline();
            if (now - sendsSettled >= 0 && (latest.isEmpty() || now - latest.getAsLong() >= 0)) {
                return;
            }
            LockSupport.parkNanos(POLL_NANOS); // waiting out the acks' deadlines, which only time resolves
        }
    }

    /** Stops (without waiting for outstanding acks if {@link #stop()} was not called) and releases everything. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopProbing();
        reconcilerThread.shutdownNow();
        discoveryThread.shutdownNow();
        for (int i = closeables.size() - 1; i >= 0; i--) {
            try {
                closeables.get(i).close();
            } catch (Exception e) {
                LOG.warn("closing {} failed", closeables.get(i), e);
            }
        }
        registry.close();
    }

    /** Options of a run besides its configuration; not thread-safe. */
    public static final class Runner {
        private final DialTestOptions config;
        private Ticker ticker = Ticker.system();
        private InstantSource wallClock = InstantSource.system();
        private Consumer<Report> onReport = r -> { };
        private UnaryOperator<AckSender> ackSenderWrapper = UnaryOperator.identity();
        private ProbeRate rate;
        private Readiness readiness = Readiness.create();
        private ConfigPublisher configPublisher;

        private Runner(DialTestOptions config) {
            this.config = Objects.requireNonNull(config, "config");
        }

        /** The run's monotonic clock: latency, deadlines, pacing; default {@link Ticker#system()}. */
        public Runner ticker(Ticker ticker) {
            this.ticker = Objects.requireNonNull(ticker, "ticker");
            return this;
        }

        /** The run's wall clock: probe bodies, due times, the last-reconciliation gauge; default {@link InstantSource#system()}. */
        public Runner wallClock(InstantSource wallClock) {
            this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
            return this;
        }

        /** Called with each period's report, on the reconciler thread. */
        public Runner onReport(Consumer<Report> onReport) {
            this.onReport = Objects.requireNonNull(onReport, "onReport");
            return this;
        }

        /**
         * The run's probe rate, for a caller that changes it while the run goes (the stress ramp, from its report
         * listener); by default one at the configuration's {@link DialTestOptions#ratePerSecond()}.
         */
        public Runner rate(ProbeRate rate) {
            this.rate = Objects.requireNonNull(rate, "rate");
            return this;
        }

        /**
         * What {@code /readyz} reports: the run marks it serving once probing began and draining when it stops; a
         * caller passes its own to mark it draining earlier (on SIGTERM, before the stop).
         */
        public Runner readiness(Readiness readiness) {
            this.readiness = Objects.requireNonNull(readiness, "readiness");
            return this;
        }

        /** Where the {@link ProbeKind#CONFIG_PROPAGATION} probe publishes its changes; needed for that kind. */
        Runner configPublisher(ConfigPublisher publisher) {
            this.configPublisher = Objects.requireNonNull(publisher, "configPublisher");
            return this;
        }

        /** Wraps the consumers' ack sender, e.g. to inject lost or duplicated acks in a test. */
        public Runner ackSenderWrapper(UnaryOperator<AckSender> wrapper) {
            this.ackSenderWrapper = Objects.requireNonNull(wrapper, "ackSenderWrapper");
            return this;
        }

        /**
         * Starts the producers and, per name server in the background, discovers its brokers, creates the probe topic
         * where missing and starts a consumer; each name server's brokers are probed once its consumer holds their
         * queues. Returns after 1 s at most for the name servers' first answers: one that is down or silent is attached
         * when it answers, its probes counted as send failures meanwhile.
         *
         * @throws DialTestException naming what could not be set up (the ack listener, the metrics endpoint); nothing
         *     is left running
         */
        public DialTestRun start() {
            DialTestRun test = new DialTestRun(this);
            try {
                test.startAll(ackSenderWrapper);
                return test;
            } catch (DialTestException e) {
                test.close();
                throw e;
            } catch (Exception e) {
                test.close();
                throw new DialTestException("cannot start the dial test: " + e.getMessage(), e);
            }
        }
    }
}
