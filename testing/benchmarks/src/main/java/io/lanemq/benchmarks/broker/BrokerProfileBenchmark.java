package io.lanemq.benchmarks.broker;

import io.lanemq.benchmarks.cpu.CpuMeter;
import io.lanemq.benchmarks.report.Figure;
import io.lanemq.benchmarks.report.FigureBenchmark;
import io.lanemq.benchmarks.report.Targets;
import io.lanemq.testkit.BrokerProfile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * P7: the same raw RocketMQ clients against brokers on RocketMQ's defaults and on the tuned profile of
 * {@code deploy/broker/broker.conf}, both stacks up side by side and measured in alternating rounds (the order
 * flips every round), so page cache, JIT and a neighbour's load drift over both alike. Per side and round:
 * 300 B sync sends from 8 threads and async sends with a bounded number in flight (the P7 figure: messages per
 * CPU-second, tuned over default), the drain of a backlog spread over 600 queues by a new push consumer group, and
 * 100 KB messages sent to and drained from a broker behind the testkit's latency proxy (the other IDC, 1-2 ms
 * away). CPU is read per process from the OS: this JVM (the clients) plus the name server and broker of the IDC
 * under test, never the other stack idling beside it. At the end, the idle CPU of both stacks.
 */
@Command(name = "broker-profile", mixinStandardHelpOptions = true,
        description = "P7: tuned broker profile (deploy/broker/broker.conf) vs RocketMQ defaults, same clients, same run: "
                + "small-message produce msgs per CPU-second (target ratio >= 1.3); also a 600-queue backlog drain, "
                + "100 KB messages across an emulated inter-IDC round trip, and idle CPU.")
public final class BrokerProfileBenchmark implements FigureBenchmark {
    private static final String PRODUCE_TOPIC = "bench-p7-produce";
    private static final int PRODUCE_QUEUES = 8;
    private static final String BACKLOG_TOPIC = "bench-p7-backlog";
    private static final int LARGE_QUEUES = 8;
    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(3);
    // Before the idle window: the last drain's consumers unregister and the brokers' post-load work winds down.
    private static final Duration SETTLE = Duration.ofSeconds(5);

    /** The measurements of one turn, in the order they run; sizes and counts are in the run's first line. */
    enum Workload {
        SYNC("small sync send"),
        ASYNC("small async send"),
        DRAIN("backlog drain, many queues"),
        LARGE_SEND("large sync send, remote"),
        LARGE_DRAIN("large drain, remote");

        final String title;

        Workload(String title) {
            this.title = title;
        }
    }

    @Option(names = "--quick", description = "Short rounds and a small backlog: a few minutes in all.")
    boolean quick;

    @Option(names = "--rounds", description = "Measured rounds per side, alternating (quick 2, full 4).")
    Integer rounds;

    @Option(names = "--round-seconds", description = "Length of each timed produce measurement (quick 5, full 15).")
    Integer roundSeconds;

    @Option(names = "--warmup-seconds", description = "Timed sends of the unmeasured first round per side (quick 3, full 10).")
    Integer warmupSeconds;

    @Option(names = "--backlog", description = "Messages in the 600-queue backlog each round drains (quick 120000, full 600000).")
    Integer backlog;

    @Option(names = "--large-messages", description = "100 KB messages sent and drained per side and round (quick 1000, full 5000).")
    Integer largeMessages;

    @Option(names = "--idle-seconds", description = "Window of the idle reading at the end (quick 10, full 30).")
    Integer idleSeconds;

    @Option(names = "--threads", defaultValue = "8", description = "Sync sending threads (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--in-flight", defaultValue = "1000", description = "Async sends awaiting an answer at most (default: ${DEFAULT-VALUE}).")
    int inFlight;

    @Option(names = "--body-bytes", defaultValue = "300", description = "Small body size (default: ${DEFAULT-VALUE}).")
    int bodyBytes;

    @Option(names = "--large-bytes", defaultValue = "102400", description = "Large body size (default: ${DEFAULT-VALUE}).")
    int largeBytes;

    @Option(names = "--queues", defaultValue = "600", description = "Queues of the backlog topic (default: ${DEFAULT-VALUE}).")
    int backlogQueues;

    @Option(names = "--pull-batch", defaultValue = "128",
            description = "Messages a consumer asks per pull and hands its listener at once, both sides; the broker caps it (default: ${DEFAULT-VALUE}).")
    int pullBatch;

    @Option(names = "--remote-delay-micros", defaultValue = "1500",
            description = "Added to every answer of the remote broker: the emulated inter-IDC round trip (default: ${DEFAULT-VALUE}).")
    long remoteDelayMicros;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "A broker setting laid over the tuned side's profile, to try a variant against the defaults (repeatable).")
    Map<String, String> variant = new LinkedHashMap<>();

    @Option(names = "--tuned-base", defaultValue = "TUNED",
            description = "Profile of the tuned side before --set: TUNED, or DEFAULT to measure --set settings alone (default: ${DEFAULT-VALUE}).")
    BrokerProfile tunedBase;

    @Option(names = "--server-jvm-option", paramLabel = "OPTION",
            description = "Added to every server JVM of both stacks (repeatable), e.g. --add-exports=java.base/sun.nio.ch=ALL-UNNAMED, "
                    + "which RocketMQ 5.3.3 needs on JDK 17 for transientStorePoolEnable and warmMapedFileEnable.")
    List<String> serverJvmOptions = new ArrayList<>();

    @Option(names = "--workloads", split = ",", description = "Measure only these: ${COMPLETION-CANDIDATES} (default: all).")
    EnumSet<Workload> workloads = EnumSet.allOf(Workload.class);

    @Override
    public List<Figure> measure() throws Exception {
        int rounds = pick(this.rounds, 2, 4);
        int roundSeconds = pick(this.roundSeconds, 5, 15);
        int warmupSeconds = pick(this.warmupSeconds, 3, 10);
        long backlog = pick(this.backlog, 120_000, 600_000);
        long largeMessages = pick(this.largeMessages, 1_000, 5_000);
        int idleSeconds = pick(this.idleSeconds, 10, 30);
        byte[] small = body(bodyBytes);
        byte[] large = body(largeBytes);
        Duration remoteDelay = Duration.ofNanos(remoteDelayMicros * 1_000);

        System.out.printf("P7 broker profile (%s): %d rounds per side, %d s sync (%d threads) and async (%,d in flight) "
                        + "sends of %d B, a %,d-message backlog on %d queues drained with pulls of %d, %,d x %,d B across "
                        + "+%.1f ms; idle over %d s%n", quick ? "quick" : "full", rounds, roundSeconds, threads, inFlight,
                bodyBytes, backlog, backlogQueues, pullBatch, largeMessages, largeBytes, remoteDelayMicros / 1000.0, idleSeconds);
        System.out.println("  tuned side: " + tunedBase + " " + tunedBase.properties());
        tunedBase.skipped().forEach((k, why) -> System.out.println("  not on a loopback test broker: " + k + " (" + why + ")"));
        if (!variant.isEmpty()) {
            System.out.println("  laid over it: " + variant);
        }

        try (ProfiledStack defaults = ProfiledStack.start("default", BrokerProfile.DEFAULT, Map.of(), serverJvmOptions);
             ProfiledStack tuned = ProfiledStack.start("tuned", tunedBase, variant, serverJvmOptions)) {
            List<Side> sides = List.of(new Side(defaults), new Side(tuned));
            for (Side side : sides) {
                side.prepare(backlog, small, remoteDelay);
                side.warmUp(small, large, warmupSeconds, backlog, largeMessages / 4);
            }
            for (int round = 1; round <= rounds; round++) {
                List<Side> order = round % 2 == 1 ? sides : List.of(sides.get(1), sides.get(0));
                for (Side side : order) {
                    side.turn(round, small, large, roundSeconds, backlog, largeMessages);
                }
            }
            Map<String, Double> idle = idleSeconds > 0 ? idleCores(sides, idleSeconds) : Map.of();
            return report(sides.get(0), sides.get(1), idle);
        }
    }

    /** The clients and the tallies of one profile's stack. */
    private final class Side {
        final ProfiledStack stack;
        final Map<Workload, Sample> tally = new EnumMap<>(Workload.class);
        DefaultMQProducer local;
        DefaultMQProducer remote;
        int groups;

        Side(ProfiledStack stack) {
            this.stack = stack;
            for (Workload w : Workload.values()) {
                tally.put(w, Sample.NONE);
            }
        }

        void prepare(long backlog, byte[] small, Duration remoteDelay) throws Exception {
            stack.createTopic(ProfiledStack.LOCAL, PRODUCE_TOPIC, PRODUCE_QUEUES);
            stack.createTopic(ProfiledStack.LOCAL, BACKLOG_TOPIC, backlogQueues);
            stack.idc(ProfiledStack.REMOTE).setBrokerDelay(remoteDelay);
            local = stack.producer(ProfiledStack.LOCAL);
            remote = stack.producer(ProfiledStack.REMOTE);
            if (workloads.contains(Workload.DRAIN)) {
                long began = System.nanoTime();
                Workloads.asyncCount(local, BACKLOG_TOPIC, small, inFlight, backlog);
                System.out.printf("  %s: backlog of %,d stored in %.1f s%n", stack.label(), backlog, (System.nanoTime() - began) / 1e9);
            }
        }

        /** An unmeasured round on every path a round takes, so the JIT of clients and brokers has compiled it. */
        void warmUp(byte[] small, byte[] large, int seconds, long backlog, long largeMessages) throws Exception {
            run("warmup", small, large, seconds, backlog, largeMessages);
        }

        void turn(int round, byte[] small, byte[] large, int seconds, long backlog, long largeMessages) throws Exception {
            Map<Workload, Sample> samples = run(String.valueOf(round), small, large, seconds, backlog, largeMessages);
            System.out.printf("  round %d, %s:%n", round, stack.label());
            samples.forEach((w, s) -> {
                tally.merge(w, s, Sample::plus);
                System.out.printf("    %-26s %s%n", w.title, s.describe());
            });
        }

        private Map<Workload, Sample> run(String round, byte[] small, byte[] large, int seconds, long backlog,
                                          long largeMessages) throws Exception {
            Supplier<CpuMeter.Reading> localCpu = cpu(ProfiledStack.LOCAL);
            Supplier<CpuMeter.Reading> remoteCpu = cpu(ProfiledStack.REMOTE);
            Map<Workload, Sample> samples = new EnumMap<>(Workload.class);
            if (workloads.contains(Workload.SYNC)) {
                samples.put(Workload.SYNC, Workloads.syncForSeconds(local, PRODUCE_TOPIC, small, threads, seconds, localCpu));
            }
            if (workloads.contains(Workload.ASYNC)) {
                samples.put(Workload.ASYNC, Workloads.asyncForSeconds(local, PRODUCE_TOPIC, small, inFlight, seconds, localCpu));
            }
            if (workloads.contains(Workload.DRAIN)) {
                samples.put(Workload.DRAIN, drain(ProfiledStack.LOCAL, BACKLOG_TOPIC, backlog, localCpu));
            }
            // The large drain reads what the large send of the same turn stored, so it needs the send.
            if (workloads.contains(Workload.LARGE_SEND) || workloads.contains(Workload.LARGE_DRAIN)) {
                String largeTopic = "bench-p7-large-" + round;
                stack.createTopic(ProfiledStack.REMOTE, largeTopic, LARGE_QUEUES);
                samples.put(Workload.LARGE_SEND, Workloads.syncCount(remote, largeTopic, large, threads, largeMessages, remoteCpu));
                if (workloads.contains(Workload.LARGE_DRAIN)) {
                    samples.put(Workload.LARGE_DRAIN, drain(ProfiledStack.REMOTE, largeTopic, largeMessages, remoteCpu));
                }
            }
            return samples;
        }

        private Sample drain(String idc, String topic, long expected, Supplier<CpuMeter.Reading> cpu) throws Exception {
            String group = "bench-p7-" + stack.label() + "-" + idc + "-" + (++groups);
            AtomicLong received = new AtomicLong();
            DefaultMQPushConsumer consumer = stack.consumer(idc, group, topic, pullBatch, received);
            try {
                return Workloads.drain(received, expected, DRAIN_TIMEOUT, cpu);
            } finally {
                stack.release(consumer);
            }
        }

        private Supplier<CpuMeter.Reading> cpu(String idc) {
            return () -> stack.cpu(idc);
        }
    }

    /** Cores used by each stack's servers with no client traffic; both stacks idle in the same window. */
    private static Map<String, Double> idleCores(List<Side> sides, int seconds) throws InterruptedException {
        Thread.sleep(SETTLE.toMillis());
        List<CpuMeter.Reading> before = new ArrayList<>();
        sides.forEach(s -> before.add(s.stack.serverCpu()));
        Thread.sleep(seconds * 1000L);
        Map<String, Double> idle = new LinkedHashMap<>();
        for (int i = 0; i < sides.size(); i++) {
            idle.put(sides.get(i).stack.label(), sides.get(i).stack.serverCpu().since(before.get(i)).cores());
        }
        return idle;
    }

    private static List<Figure> report(Side defaults, Side tuned, Map<String, Double> idle) {
        List<Figure> figures = new ArrayList<>();
        System.out.println("  totals over all rounds (default | tuned | tuned/default msgs per CPU-second):");
        for (Workload w : Workload.values()) {
            Sample d = defaults.tally.get(w);
            Sample t = tuned.tally.get(w);
            if (d.messages() == 0 || t.messages() == 0) {
                continue;
            }
            System.out.printf("RESULT P7 %-26s default %s | tuned %s | per-CPU ratio %.3f (servers %.3f), msgs/s ratio %.3f%n",
                    w.title, d.describe(), t.describe(), t.msgsPerCpuSecond() / d.msgsPerCpuSecond(),
                    d.serverCpuMsPerMessage() / t.serverCpuMsPerMessage(), t.msgsPerSecond() / d.msgsPerSecond());
            // The target is the seed's produce experiment; the drains are reported beside it.
            boolean produce = w == Workload.SYNC || w == Workload.ASYNC;
            figures.add(Figure.of("P7", "tuned vs default broker: " + w.title + ", msgs per CPU-second")
                    .measured(t.msgsPerCpuSecond(), "msgs/CPU-s").baseline(d.msgsPerCpuSecond())
                    .target(produce ? Targets.P7_TUNED_VS_DEFAULT_PER_CPU : null)
                    .cpuMsPerMessage(t.cpuMsPerMessage())
                    .note(String.format("msgs/s %,.0f vs %,.0f; servers' CPU-ms/msg %.4f vs %.4f", t.msgsPerSecond(),
                            d.msgsPerSecond(), t.serverCpuMsPerMessage(), d.serverCpuMsPerMessage()))
                    .build());
        }
        if (!idle.isEmpty()) {
            double tunedIdle = idle.get(tuned.stack.label()) * 100;
            double defaultIdle = idle.get(defaults.stack.label()) * 100;
            System.out.printf("RESULT P7 idle stack (2 name servers, 2 brokers, no traffic): default %.1f%% of a core, tuned %.1f%%%n",
                    defaultIdle, tunedIdle);
            figures.add(Figure.of("P7", "tuned vs default broker: idle stack (2 name servers, 2 brokers)")
                    .measured(tunedIdle, "% of a core").baseline(defaultIdle).note("no traffic; P8 has the target").build());
        }
        return figures;
    }

    private int pick(Integer explicit, int quickValue, int fullValue) {
        return explicit != null ? explicit : quick ? quickValue : fullValue;
    }

    // Random bytes: a body of zeros would let any compression on the path make it look small.
    private static byte[] body(int size) {
        byte[] body = new byte[size];
        ThreadLocalRandom.current().nextBytes(body);
        return body;
    }
}
