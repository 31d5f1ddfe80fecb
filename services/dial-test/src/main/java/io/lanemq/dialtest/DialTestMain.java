package io.lanemq.dialtest;

import io.lanemq.api.MessagingException;
import io.lanemq.localstack.LoggingSetup;
import io.lanemq.service.http.GracefulShutdown;
import io.lanemq.service.http.Readiness;
import io.lanemq.service.http.ServiceEndpoints;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.RocketMqStack;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The main job. Without {@code --name-servers} it starts the embedded dual-IDC stack (real name servers and
 * brokers from the testkit) and probes it; with them it probes real clusters. It prints the live table every
 * period and a summary at the end ({@code --duration}, or Ctrl-C), and exits 1 when any probe was lost.
 */
@Command(name = "dial-test", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 110,
    description = {
        "Probes every broker of every cluster with normal, delayed and transactional messages, reconciles the "
            + "acks the consumer sends back over TCP (loss, duplicates, latency) and serves Prometheus metrics.",
        "Without --name-servers it starts a local dual-IDC RocketMQ stack and probes that.",
        "Options can also come from a file: dial-test @dial-test.args (one option per line).",
        "Stress mode (--stress) raises the rate step by step and reports where loss, send failures or latency start.",
        "Exit code: 0 = no loss (in stress mode: the ramp ran), 1 = probes were lost, 2 = could not start."},
    footer = "Durations: 500ms, 5s, 2m, 1h.")
public final class DialTestMain implements Callable<Integer> {

    static final int EXIT_LOSS = 1;
    static final int EXIT_FAILURE = 2;
    private static final String SECRET_ENV = "LANEMQ_DIALTEST_ACK_SECRET";

    @Option(names = "--name-servers", split = ",", paramLabel = "LABEL=HOST:PORT",
        description = "Name servers to probe, e.g. idc-a=10.0.0.1:9876,idc-b=10.1.0.1:9876. Default: start the "
            + "embedded dual-IDC stack.")
    Map<String, String> nameServers = new LinkedHashMap<>();

    @Option(names = "--duration", paramLabel = "SECONDS",
        description = "Stop after this many seconds (default: run until Ctrl-C).")
    long durationSeconds;

    @Option(names = "--rate", paramLabel = "PER_SECOND", defaultValue = "10",
        description = "Probes per second per broker and per kind (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--body-size", paramLabel = "BYTES", defaultValue = "512",
        description = "Probe body size (default: ${DEFAULT-VALUE}).")
    int bodySize;

    @Option(names = "--sampling", paramLabel = "RATIO", defaultValue = "1.0",
        description = "Share of probes tracked and reconciled, in (0, 1] (default: ${DEFAULT-VALUE}).")
    double sampling;

    @Option(names = "--period", converter = DurationConverter.class, defaultValue = "5s",
        description = "Reconciliation period (default: ${DEFAULT-VALUE}).")
    Duration period;

    @Option(names = "--grace", converter = DurationConverter.class, defaultValue = "10s",
        description = "How long after its due time a probe may be acked before it counts as lost (default: "
            + "${DEFAULT-VALUE}).")
    Duration grace;

    @Option(names = "--delay", converter = DurationConverter.class, defaultValue = "5s",
        description = "Delay of delayed probes (default: ${DEFAULT-VALUE}).")
    Duration delay;

    @Option(names = "--check-back-allowance", converter = DurationConverter.class, defaultValue = "45s",
        description = "Extra time for transactions resolved by the broker's check-back (default: ${DEFAULT-VALUE}).")
    Duration checkBackAllowance;

    @Option(names = "--kinds", split = ",", paramLabel = "KIND", converter = KindConverter.class,
        description = "Probe kinds: normal, delayed, transactional, delay_server, logic_topic, config_propagation (default: "
            + "the first three, delay_server when a delay server is named or embedded, logic_topic when a logic topic is "
            + "named or embedded, config_propagation when embedded).")
    List<ProbeKind> kinds;

    @Option(names = "--ack-listen", paramLabel = "HOST:PORT", converter = AddressConverter.class,
        defaultValue = "127.0.0.1:0", description = "Where acks are received (default: ${DEFAULT-VALUE}, any free port).")
    InetSocketAddress ackListen;

    @Option(names = {"--http-address", "--metrics-address"}, paramLabel = "HOST:PORT", converter = AddressConverter.class,
        defaultValue = "127.0.0.1:0", description = "Where GET /livez, /readyz and /metrics are served "
            + "(default: ${DEFAULT-VALUE}).")
    InetSocketAddress metricsAddress;

    @Option(names = "--shutdown-grace", converter = DurationConverter.class, defaultValue = "60s",
        description = "On SIGTERM or Ctrl-C: not ready at once, then wait for outstanding acks and print the summary, "
            + "for at most this long (default: ${DEFAULT-VALUE}).")
    Duration shutdownGrace;

    @Option(names = "--readiness-delay", converter = DurationConverter.class, defaultValue = "0s",
        description = "On SIGTERM: keep serving, not ready, this long before stopping, while load balancers stop "
            + "routing here (default: ${DEFAULT-VALUE}).")
    Duration readinessDelay;

    @Option(names = "--delay-server-topic", paramLabel = "TOPIC",
        description = "Probe the delay server too (kind delay_server): its internal delay topic, as the platform "
            + "configuration's delay.internalTopic names it. Needs --delay-logic-topic. The embedded default runs one.")
    String delayServerTopic;

    @Option(names = "--delay-logic-topic", paramLabel = "LOGIC_TOPIC",
        description = "The logic topic the platform configuration routes to the probe topic on every cluster; "
            + "the delay server delivers delay_server probes there.")
    String delayLogicTopic;

    @Option(names = "--logic-topic-config", paramLabel = "LOCATION",
        description = "Probe a logic topic through the SDK too (kind logic_topic): the platform configuration a client "
            + "of the dial test reads, as an application's configLocation (file:..., etcd://...). Needs --logic-topic and "
            + "--logic-topic-group. The embedded default probes one.")
    String logicTopicConfig;

    @Option(names = "--logic-topic", paramLabel = "LOGIC_TOPIC",
        description = "The logic topic probed through the SDK, routed to both IDCs by that configuration.")
    String logicTopic;

    @Option(names = "--logic-topic-group", paramLabel = "GROUP",
        description = "The consumer group declared on that logic topic, which the dial test consumes it in.")
    String logicTopicGroup;

    @Option(names = "--topic", defaultValue = "lanemq_dialtest_probe",
        description = "Probe topic, created on every broker where missing (default: ${DEFAULT-VALUE}).")
    String topic;

    @Option(names = "--queues", defaultValue = "2", description = "Probe queues per broker (default: ${DEFAULT-VALUE}).")
    int queues;

    @Option(names = "--consumer-group", defaultValue = "lanemq-dialtest",
        description = "Probe consumer group, shared by all dial-test processes (default: ${DEFAULT-VALUE}).")
    String consumerGroup;

    @Option(names = "--stress", description = "Stress mode: probe at --stress-start, raise the rate by --stress-step "
        + "every --stress-step-seconds (each step reconciled on its own) and stop at the first step with loss, send "
        + "failures, a p99 over --stress-p99-limit-ms or under 95%% of its expected sends issued, or after --stress-max; "
        + "prints the steps and the highest clean rate reached. Replaces --rate and --period.")
    boolean stress;

    @Option(names = "--stress-start", paramLabel = "PER_SECOND",
        description = "Stress: first rate, probes/s per broker and kind (default: 10).")
    Double stressStart;

    @Option(names = "--stress-step", paramLabel = "PER_SECOND",
        description = "Stress: rate added per step (default: 10).")
    Double stressStep;

    @Option(names = "--stress-max", paramLabel = "PER_SECOND", description = "Stress: last rate at most (default: 1000).")
    Double stressMax;

    @Option(names = "--stress-step-seconds", paramLabel = "SECONDS",
        description = "Stress: how long each step probes (default: 30).")
    Long stressStepSeconds;

    @Option(names = "--stress-p99-limit-ms", paramLabel = "MILLIS",
        description = "Stress: a step whose worst lane's p99 latency exceeds this broke (default: 1000).")
    Long stressP99LimitMs;

    private final PrintStream out;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final AtomicBoolean interrupted = new AtomicBoolean();
    /** The run under way, for the readiness lines; null before and after. */
    private volatile DialTestRun running;
    /** Ready while probing; a name server not reached is a line of the answer, not a failure (its probes count as failed). */
    private final Readiness readiness = Readiness.withChecks(() -> {
        DialTestRun run = running;
        return ServiceEndpoints.Health.up(run == null ? "" : String.join("\n", run.unreachedNameServers()));
    });
    private boolean embedded;

    DialTestMain(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        LoggingSetup.pinLogback();
        // A new group's %RETRY% topic is only picked up at the next rebalance: every 20 s by default.
        if (System.getProperty("rocketmq.client.rebalance.waitInterval") == null) {
            System.setProperty("rocketmq.client.rebalance.waitInterval", "2000");
        }
        DialTestMain main = new DialTestMain(System.out);
        AtomicInteger exitCode = new AtomicInteger(EXIT_FAILURE);
        CountDownLatch finished = new CountDownLatch(1);
        AtomicBoolean exiting = new AtomicBoolean();
        // SIGTERM or Ctrl-C, the services' one way (service-http): not ready at once, probing on through the readiness
        // delay, then stop probing, let main() print the summary and end with its exit code, within the grace period.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (exiting.get()) {
                return;
            }
            boolean done = GracefulShutdown.drain("lanemq-dialtest", main.readiness, main.readinessDelayOrNone(),
                    main.graceOrDefault(), () -> {
                main.interrupted.set(true);
                main.stopRequested.countDown();
                try {
                    finished.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            if (done) {
                Runtime.getRuntime().halt(exitCode.get());
            }
        }, "lanemq-dialtest-shutdown"));
        try {
            exitCode.set(new CommandLine(main).execute(args));
        } catch (Throwable e) {
            // An Error (a missing class, say) passes through picocli: without this the probe threads already
            // started would keep the process alive and never ready, as the delay server's image once did.
            e.printStackTrace();
            exitCode.set(EXIT_FAILURE);
        } finally {
            exiting.set(true);
            finished.countDown();
        }
        System.exit(exitCode.get());
    }

    @Override
    public Integer call() throws Exception {
        DialTestOptions.Builder builder;
        StressOptions stressConfig;
        try {
            GracefulShutdown.requireGrace(shutdownGrace);
            GracefulShutdown.requireReadinessDelay(readinessDelay);
            stressConfig = stressConfig();
            builder = configBuilder();
            if (stressConfig != null) {
                // One reconciliation per step: each step is judged on its own report.
                builder.ratePerSecond(stressConfig.startRate()).period(stressConfig.stepDuration());
            }
            if (!nameServers.isEmpty()) {
                nameServers.forEach(builder::nameServer);
            }
        } catch (IllegalArgumentException e) {
            System.err.println("dial-test: " + e.getMessage());
            return EXIT_FAILURE;
        }
        RocketMqStack stack = null;
        EmbeddedPlatform platform = null;
        EmbeddedDelayServer delayServer = null;
        try {
            if (nameServers.isEmpty()) {
                out.println("Starting the embedded dual-IDC stack (two name servers, two brokers)...");
                embedded = true;
                stack = RocketMqStack.start(EmbeddedStack.dualIdc());
                for (Idc idc : stack.idcs()) {
                    builder.nameServer(idc.name(), idc.nameServerAddress());
                    out.println("  " + idc.name() + ": cluster " + idc.clusterName() + ", name server "
                        + idc.nameServerAddress());
                }
                platform = EmbeddedPlatform.on(stack, topic);
                delayServer = EmbeddedDelayServer.start(platform);
                builder.delayServer(delayServer.target().internalTopic(), delayServer.target().logicTopic());
                out.println("  delay server on internal topic " + delayServer.target().internalTopic());
                builder.logicTopic(platform.configLocation(), EmbeddedPlatform.LOGIC_TOPIC, EmbeddedPlatform.LOGIC_GROUP)
                    .configProbeKey(EmbeddedPlatform.CONFIG_PROBE_KEY);
                out.println("  logic topic " + EmbeddedPlatform.LOGIC_TOPIC + " (weights 50/50) in "
                    + platform.configLocation() + ", configuration probe key " + EmbeddedPlatform.CONFIG_PROBE_KEY);
            }
            return run(builder.build(), stressConfig == null ? null : new StressRamp(stressConfig), platform);
        } catch (RuntimeException e) {
            // Not a finding about the brokers, so never exit code 1: start-up failed, or Ctrl-C interrupted it.
            System.err.println("dial-test: " + (interrupted.get() ? "interrupted: " : "") + e.getMessage());
            return EXIT_FAILURE;
        } catch (MessagingException e) {
            System.err.println("dial-test: the embedded delay server did not start: " + e.getMessage());
            return EXIT_FAILURE;
        } finally {
            if (delayServer != null) {
                delayServer.close();
            }
            if (platform != null) {
                platform.close();
            }
            if (stack != null) {
                stack.close();
            }
        }
    }

    /** The grace period asked for, valid or the default (a SIGTERM may come before the options are parsed). */
    private Duration graceOrDefault() {
        Duration asked = shutdownGrace;
        if (asked == null || asked.isNegative() || asked.compareTo(GracefulShutdown.MAX_GRACE) > 0) {
            return Duration.ofSeconds(60);
        }
        return asked;
    }

    /** The readiness delay asked for, valid, or none (a SIGTERM may come before the options are parsed). */
    private Duration readinessDelayOrNone() {
        Duration asked = readinessDelay;
        if (asked == null || asked.isNegative() || asked.compareTo(GracefulShutdown.MAX_READINESS_DELAY) > 0) {
            return Duration.ZERO;
        }
        return asked;
    }

    /** Runs until the duration, Ctrl-C or (with a stress ramp) the ramp's end. */
    private int run(DialTestOptions config, StressRamp ramp, ConfigPublisher publisher) throws InterruptedException {
        double ratio = config.samplingRatio();
        ProbeRate rate = new ProbeRate(config.ratePerSecond());
        Consumer<Report> onReport = r -> out.print("\n" + LiveTable.period(r, ratio));
        if (ramp != null) {
            onReport = onReport.andThen(r -> nextStep(ramp, rate, r));
        }
        DialTestRun.Runner runner = DialTestRun.runner(config).rate(rate).onReport(onReport).readiness(readiness);
        if (publisher != null) {
            runner.configPublisher(publisher);
        }
        try (DialTestRun test = runner.start()) {
            running = test;
            out.printf("Probing %s every %s: %s probes/s per broker and kind, %d-byte bodies, run %s%n",
                config.nameServers(), config.period(), LiveTable.rate(config.ratePerSecond()), config.bodySize(),
                Long.toHexString(test.runId()));
            if (ramp != null) {
                StressOptions s = ramp.config();
                out.printf("Stress ramp: from %s/s by %s/s up to %s/s, %d s per step, p99 limit %s ms%n",
                    LiveTable.rate(s.startRate()), LiveTable.rate(s.step()), LiveTable.rate(s.maxRate()),
                    s.stepDuration().toSeconds(), StressRamp.millis(s.p99Limit().toNanos() / 1000));
            }
            test.metricsUri().ifPresent(uri -> out.println("Prometheus metrics at " + uri));
            out.println(durationSeconds > 0 ? "Stopping after " + durationSeconds + " s." : "Ctrl-C stops.");
            if (durationSeconds > 0) {
                stopRequested.await(durationSeconds, TimeUnit.SECONDS);
            } else {
                stopRequested.await();
            }
            // Ctrl-C reaches the embedded brokers too (one process group): acks still in flight will not come.
            boolean waitForAcks = !(embedded && interrupted.get());
            out.println(waitForAcks ? "\nStopping: waiting for outstanding acks..."
                : "\nStopping: Ctrl-C stops the embedded brokers too, so probes in flight stay pending, not lost.");
            Report totals = test.stop(waitForAcks);
            out.print("\n" + LiveTable.summary(totals, ratio));
            if (ramp != null) {
                // Loss at the breaking step is the finding, not a failure of the run.
                out.print("\n" + LiveTable.stress(ramp));
                return 0;
            }
            return totals.total().lost() > 0 ? EXIT_LOSS : 0;
        }
    }

    // On the reconciler thread, once per step: judge it, then raise the rate or end the run.
    private void nextStep(StressRamp ramp, ProbeRate rate, Report report) {
        double stepRate = ramp.currentRate();
        boolean wasFinished = ramp.finished();
        OptionalDouble next = ramp.onStep(report);
        if (next.isPresent()) {
            rate.set(next.getAsDouble());
            out.printf("stress: %s/s clean, now %s/s%n", LiveTable.rate(stepRate), LiveTable.rate(next.getAsDouble()));
        } else if (!wasFinished) {
            StressStep last = ramp.steps().get(ramp.steps().size() - 1);
            out.printf("stress: %s/s %s; stopping%n", LiveTable.rate(stepRate),
                last.clean() ? "clean, the maximum" : String.join(", ", last.breaches()));
            stopRequested.countDown();
        }
    }

    /** The stress ramp asked for, or null; a --stress-* option without --stress is a mistake worth naming. */
    private StressOptions stressConfig() {
        if (!stress) {
            if (stressStart != null || stressStep != null || stressMax != null || stressStepSeconds != null
                || stressP99LimitMs != null) {
                throw new IllegalArgumentException("--stress-start, --stress-step, --stress-max, --stress-step-seconds "
                    + "and --stress-p99-limit-ms need --stress");
            }
            return null;
        }
        StressOptions.Builder b = StressOptions.builder();
        if (stressStart != null) {
            b.startRate(stressStart);
        }
        if (stressStep != null) {
            b.step(stressStep);
        }
        if (stressMax != null) {
            b.maxRate(stressMax);
        }
        if (stressStepSeconds != null) {
            b.stepDuration(Duration.ofSeconds(stressStepSeconds));
        }
        if (stressP99LimitMs != null) {
            b.p99Limit(Duration.ofMillis(stressP99LimitMs));
        }
        return b.build();
    }

    private DialTestOptions.Builder configBuilder() {
        DialTestOptions.Builder b = DialTestOptions.builder().ratePerSecond(rate).bodySize(bodySize)
            .samplingRatio(sampling).period(period).grace(grace).delay(delay).checkBackAllowance(checkBackAllowance)
            .ackListenAddress(ackListen).metricsAddress(metricsAddress).probeTopic(topic).queuesPerBroker(queues)
            .consumerGroup(consumerGroup);
        if (kinds != null && !kinds.isEmpty()) {
            b.kinds(EnumSet.copyOf(kinds));
        }
        if ((delayServerTopic == null) != (delayLogicTopic == null)) {
            throw new IllegalArgumentException("--delay-server-topic and --delay-logic-topic go together");
        }
        if (delayServerTopic != null) {
            b.delayServer(delayServerTopic, delayLogicTopic);
        }
        if (logicTopicConfig != null || logicTopic != null || logicTopicGroup != null) {
            if (logicTopicConfig == null || logicTopic == null || logicTopicGroup == null) {
                throw new IllegalArgumentException("--logic-topic-config, --logic-topic and --logic-topic-group go together");
            }
            b.logicTopic(logicTopicConfig, logicTopic, logicTopicGroup);
        }
        String secret = System.getenv(SECRET_ENV);
        if (secret != null && !secret.isEmpty()) {
            b.ackSecret(secret.getBytes(StandardCharsets.UTF_8));
        }
        return b;
    }

    /** {@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h}, or an ISO-8601 duration. */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            String v = value.trim().toLowerCase(Locale.ROOT);
            try {
                if (v.endsWith("ms")) {
                    return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
                }
                if (v.endsWith("s")) {
                    return Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)));
                }
                if (v.endsWith("m")) {
                    return Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 1)));
                }
                if (v.endsWith("h")) {
                    return Duration.ofHours(Long.parseLong(v.substring(0, v.length() - 1)));
                }
                return Duration.parse(value.trim());
            } catch (RuntimeException e) {
                throw new CommandLine.TypeConversionException("not a duration (500ms, 5s, 2m, 1h): " + value);
            }
        }
    }

    /** {@code host:port}. */
    static final class AddressConverter implements CommandLine.ITypeConverter<InetSocketAddress> {
        @Override
        public InetSocketAddress convert(String value) {
            int colon = value.lastIndexOf(':');
            if (colon <= 0) {
                throw new CommandLine.TypeConversionException("not host:port: " + value);
            }
            try {
                String host = value.substring(0, colon).replace("[", "").replace("]", "");
                return new InetSocketAddress(host, Integer.parseInt(value.substring(colon + 1)));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException("not host:port: " + value);
            }
        }
    }

    /** {@code normal}, {@code delayed}, {@code transactional}, in any case. */
    static final class KindConverter implements CommandLine.ITypeConverter<ProbeKind> {
        @Override
        public ProbeKind convert(String value) {
            try {
                return ProbeKind.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
