package io.lanemq.dialtest;

import io.lanemq.localstack.LoggingSetup;
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
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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
        "Exit code: 0 = no loss, 1 = probes were lost, 2 = could not start."},
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
        description = "Probe kinds: normal, delayed, transactional (default: all).")
    List<ProbeKind> kinds;

    @Option(names = "--ack-listen", paramLabel = "HOST:PORT", converter = AddressConverter.class,
        defaultValue = "127.0.0.1:0", description = "Where acks are received (default: ${DEFAULT-VALUE}, any free port).")
    InetSocketAddress ackListen;

    @Option(names = "--metrics-address", paramLabel = "HOST:PORT", converter = AddressConverter.class,
        defaultValue = "127.0.0.1:0", description = "Where GET /metrics is served (default: ${DEFAULT-VALUE}).")
    InetSocketAddress metricsAddress;

    @Option(names = "--topic", defaultValue = "lanemq_dialtest_probe",
        description = "Probe topic, created on every broker where missing (default: ${DEFAULT-VALUE}).")
    String topic;

    @Option(names = "--queues", defaultValue = "2", description = "Probe queues per broker (default: ${DEFAULT-VALUE}).")
    int queues;

    @Option(names = "--consumer-group", defaultValue = "lanemq-dialtest",
        description = "Probe consumer group, shared by all dial-test processes (default: ${DEFAULT-VALUE}).")
    String consumerGroup;

    private final PrintStream out;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final AtomicBoolean interrupted = new AtomicBoolean();
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
        // Ctrl-C: stop probing, let main() print the summary, then end with its exit code.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (exiting.get()) {
                return;
            }
            main.interrupted.set(true);
            main.stopRequested.countDown();
            try {
                if (finished.await(5, TimeUnit.MINUTES)) {
                    Runtime.getRuntime().halt(exitCode.get());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "lanemq-dialtest-ctrl-c"));
        try {
            exitCode.set(new CommandLine(main).execute(args));
        } finally {
            exiting.set(true);
            finished.countDown();
        }
        System.exit(exitCode.get());
    }

    @Override
    public Integer call() throws Exception {
        DialTestConfig.Builder builder;
        try {
            builder = configBuilder();
            if (!nameServers.isEmpty()) {
                nameServers.forEach(builder::nameServer);
            }
        } catch (IllegalArgumentException e) {
            System.err.println("dial-test: " + e.getMessage());
            return EXIT_FAILURE;
        }
        RocketMqStack stack = null;
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
            }
            return run(builder.build());
        } catch (RuntimeException e) {
            // Not a finding about the brokers, so never exit code 1: start-up failed, or Ctrl-C interrupted it.
            System.err.println("dial-test: " + (interrupted.get() ? "interrupted: " : "") + e.getMessage());
            return EXIT_FAILURE;
        } finally {
            if (stack != null) {
                stack.close();
            }
        }
    }

    private int run(DialTestConfig config) throws InterruptedException {
        double ratio = config.samplingRatio();
        try (DialTest test = DialTest.runner(config).onReport(r -> out.print("\n" + LiveTable.period(r, ratio))).start()) {
            out.printf("Probing %s every %s: %s probes/s per broker and kind, %d-byte bodies, run %s%n",
                config.nameServers(), config.period(), config.ratePerSecond(), config.bodySize(),
                Long.toHexString(test.runId()));
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
            return totals.total().lost() > 0 ? EXIT_LOSS : 0;
        }
    }

    private DialTestConfig.Builder configBuilder() {
        DialTestConfig.Builder b = DialTestConfig.builder().ratePerSecond(rate).bodySize(bodySize)
            .samplingRatio(sampling).period(period).grace(grace).delay(delay).checkBackAllowance(checkBackAllowance)
            .ackListenAddress(ackListen).metricsAddress(metricsAddress).probeTopic(topic).queuesPerBroker(queues)
            .consumerGroup(consumerGroup);
        if (kinds != null && !kinds.isEmpty()) {
            b.kinds(EnumSet.copyOf(kinds));
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
