package io.lanemq.benchmarks.transit;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Consumer;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.Subscription;
import io.lanemq.benchmarks.report.Figure;
import io.lanemq.benchmarks.report.FigureBenchmark;
import io.lanemq.benchmarks.report.Targets;
import io.lanemq.config.BatchConfig;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.BrokerNode;
import io.lanemq.testkit.BrokerProfile;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.StackSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.message.MessageExt;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * T1: paced transit, producer to broker to consumer, at the steady rates most topics run at, through the SDK (a LaneMQ
 * producer and a DIRECT consumer, a logic topic on both IDCs 50/50) beside raw RocketMQ clients (a producer and a push
 * consumer per IDC, sends alternating between the IDCs), every client connected for the whole run on one dual-IDC
 * stack. The figure is the CPU of every JVM (this one, both name servers, both brokers) above the same stack idling
 * with the same clients connected, per message: what a message costs once the fixed cost of being connected is paid.
 *
 * <p>The warm-up runs at the highest rate until the JIT compiler threads of every JVM are nearly idle over a round, so
 * the measured phases do not pay for compilation; the compiler's share in each phase is printed to show it. Each phase
 * prints where its CPU went, per JVM and thread family above the idle rate, and the requests the brokers received per
 * message by kind (RocketMQ's own per-second request-code counts). For a profile, start this JVM with
 * {@code -XX:StartFlightRecording=...} and the stack's JVMs with {@code -Dlanemq.testkit.childJvmOptions=...}.
 */
@Command(name = "transit", mixinStandardHelpOptions = true,
        description = "T1: paced transit through the SDK (LaneMQ producer + DIRECT consumer, both IDCs) vs raw RocketMQ clients: "
                + "CPU-ms per message above the idle connected stack (target <= 0.5, SDK <= raw) and p99 (target <= 10 ms), "
                + "with the CPU per JVM and thread and the broker requests per message.")
public final class TransitBenchmark implements FigureBenchmark {
    static final String PHASE = "bench-phase";
    static final String SEQUENCE = "bench-seq";
    static final String SENT_NANOS = "bench-sent-nanos";
    private static final String TOPIC = "bench-transit";
    private static final int QUEUES = 8;
    private static final int WINDOW = 2_000;
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    /** A thread family costing less than this per message is left out of a phase's breakdown. */
    private static final double BREAKDOWN_FLOOR_MS = 0.005;

    /** The two ways through the brokers compared. */
    enum Kind { RAW, SDK }

    @Option(names = "--rates", split = ",", defaultValue = "200,1000", description = "Paced rates in msgs/s (default: ${DEFAULT-VALUE}).")
    List<Integer> rates;

    @Option(names = "--seconds", defaultValue = "20", description = "Length of each measured phase (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--rounds", defaultValue = "2",
            description = "Phases per kind and rate, the kinds alternating, summed into one figure (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--min-warmup-seconds", defaultValue = "30", description = "Warm-up at least (default: ${DEFAULT-VALUE}).")
    int minWarmupSeconds;

    @Option(names = "--max-warmup-seconds", defaultValue = "120", description = "Warm-up at most, JIT quiet or not (default: ${DEFAULT-VALUE}).")
    int maxWarmupSeconds;

    @Option(names = "--jit-quiet-percent", defaultValue = "3",
            description = "Warm-up ends once the compiler threads of all JVMs together spent less than this %% of a core over a round (default: ${DEFAULT-VALUE}).")
    double jitQuietPercent;

    @Option(names = "--idle-seconds", defaultValue = "20", description = "Idle window, every client connected (default: ${DEFAULT-VALUE}).")
    int idleSeconds;

    @Option(names = "--body-bytes", defaultValue = "300", description = "Body size (default: ${DEFAULT-VALUE}).")
    int bodyBytes;

    @Option(names = "--kinds", split = ",", description = "Measure only these: ${COMPLETION-CANDIDATES} (default: both).")
    EnumSet<Kind> kinds = EnumSet.allOf(Kind.class);

    @Option(names = "--broker-profile", defaultValue = "DEFAULT",
            description = "The brokers' settings: DEFAULT (RocketMQ's, as the other rows) or TUNED (deploy/broker/broker.conf) (default: ${DEFAULT-VALUE}).")
    BrokerProfile brokerProfile;

    @Option(names = "--linger-ms", description = "The SDK producer's producer.batch.lingerMs (default: the platform's default).")
    Integer lingerMs;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "A broker setting laid over the profile (repeatable), to try a lever.")
    Map<String, String> brokerSettings = new LinkedHashMap<>();

    private final Map<Kind, Arrivals> current = new EnumMap<>(Kind.class);
    private final AtomicLong failedSends = new AtomicLong();
    private final Semaphore window = new Semaphore(WINDOW);
    private byte[] body;

    @Override
    public List<Figure> measure() throws Exception {
        body = new byte[bodyBytes];
        current.put(Kind.RAW, new Arrivals("none"));
        current.put(Kind.SDK, new Arrivals("none"));
        String sdkGroup = LocalPlatform.unique("bench-transit-sdk");
        String rawGroup = LocalPlatform.unique("bench-transit-raw");
        String rawTopic = LocalPlatform.unique("bench-transit-raw");
        StackSpec.Builder spec = StackSpec.dualIdc().toBuilder().brokerProfile(brokerProfile);
        brokerSettings.forEach(spec::brokerProperty);
        System.out.printf("T1 paced transit: %s at %s msgs/s, %d s each, %d B; brokers %s %s; clients at RocketMQ's own intervals; "
                + "SDK linger %s%n", kinds, rates, seconds, bodyBytes, brokerProfile, brokerSettings,
                lingerMs == null ? BatchConfig.DEFAULTS.linger() : lingerMs + " ms");
        try (LocalPlatform platform = LocalPlatform.start(spec.build())) {
            platform.productionClientIntervals();
            if (lingerMs != null) {
                BatchConfig d = BatchConfig.DEFAULTS;
                platform.batch(new BatchConfig(d.maxMessages(), d.maxBytes(), d.maxInFlight(), Duration.ofMillis(lingerMs)));
            }
            platform.addTopic(TOPIC, QUEUES, 50, 50, sdkGroup);
            platform.stack().createTopic(rawTopic, QUEUES);
            List<DefaultMQProducer> rawProducers = new ArrayList<>();
            List<DefaultMQPushConsumer> rawConsumers = new ArrayList<>();
            try (MessagingClient client = platform.client("bench-transit");
                 Producer producer = client.createProducer(ProducerOptions.defaults());
                 Consumer consumer = client.subscribe(Subscription.builder(TOPIC, sdkGroup).build(), this::sdkArrived)) {
                for (Idc idc : platform.stack().idcs()) {
                    rawProducers.add(rawProducer(idc));
                    rawConsumers.add(rawConsumer(idc, rawGroup, rawTopic));
                }
                Map<Kind, Sender> senders = new EnumMap<>(Kind.class);
                senders.put(Kind.RAW, rawSender(rawProducers, rawTopic));
                senders.put(Kind.SDK, (phase, seq) -> producer.sendAsync(stamped(Message.builder(TOPIC).body(body), phase, seq))
                        .whenComplete((r, e) -> sent(e)));
                StackCpu cpu = new StackCpu(processes(platform));
                BrokerRequests requests = new BrokerRequests(platform.stack().idcs().stream()
                        .flatMap(i -> i.brokers().stream()).map(TransitBenchmark::trafficLog).toList());
                warmUp(cpu, senders);
                pause(3);
                StackCpu.Snapshot quiet = cpu.read();
                pause(idleSeconds);
                StackCpu.Window idle = cpu.read().since(quiet);
                System.out.printf("  idle, every client connected: %.3f cores (%s)%n", idle.cores(), idle.perProcess());
                List<Figure> figures = new ArrayList<>();
                int turn = 0;
                for (int rate : rates) {
                    Map<Kind, Tally> tallies = new EnumMap<>(Kind.class);
                    kinds.forEach(k -> tallies.put(k, new Tally(new Arrivals(k + "-" + rate))));
                    for (int round = 0; round < rounds; round++) {
                        // The order flips every turn, so a drift of the machine's load falls on both kinds alike.
                        List<Kind> order = new ArrayList<>(kinds);
                        if (turn++ % 2 == 1) {
                            Collections.reverse(order);
                        }
                        for (Kind kind : order) {
                            phase(kind, rate, round, senders.get(kind), tallies.get(kind), cpu, idle, requests);
                        }
                    }
                    Map<Kind, Result> results = new EnumMap<>(Kind.class);
                    tallies.forEach((kind, tally) -> results.put(kind, tally.result()));
                    results.forEach((kind, r) -> System.out.printf("  %s at %,d msgs/s over %d rounds: %.3f CPU-ms/msg above idle "
                            + "(%.3f in all), p50 %.1f ms, p99 %.1f ms%n", kind, rate, rounds, r.cpuMsAboveIdle(), r.cpuMsTotal(),
                            r.p50(), r.p99()));
                    figures.addAll(figures(rate, results));
                }
                return figures;
            } finally {
                rawConsumers.forEach(DefaultMQPushConsumer::shutdown);
                rawProducers.forEach(DefaultMQProducer::shutdown);
            }
        }
    }

    /** One send of a kind, stamped with its phase and sequence number. */
    @FunctionalInterface
    private interface Sender {
        void send(String phase, long sequence) throws Exception;
    }

    /** One kind's phases at one rate, summed. */
    private static final class Tally {
        final Arrivals arrivals;
        int sent;
        long failed;
        long aboveIdleNanos;
        long cpuNanos;
        long compilerNanos;
        long wallNanos;

        Tally(Arrivals arrivals) {
            this.arrivals = arrivals;
        }

        Result result() {
            long messages = Math.max(1, arrivals.distinct());
            return new Result(sent, arrivals.distinct(), failed, aboveIdleNanos / 1e6 / messages, cpuNanos / 1e6 / messages,
                    arrivals.millisAt(0.50), arrivals.millisAt(0.99), wallNanos == 0 ? 0 : (double) compilerNanos / wallNanos);
        }
    }

    /** What one kind's phases at one rate measured. */
    private record Result(int sent, int arrived, long failed, double cpuMsAboveIdle, double cpuMsTotal, double p50, double p99,
                          double compilerCores) {
        boolean complete() {
            return arrived == sent && failed == 0;
        }
    }

    /**
     * Rounds of both kinds at the highest rate until the compiler threads are quiet over a whole round (and at least
     * the minimum has passed), or the maximum has.
     */
    private void warmUp(StackCpu cpu, Map<Kind, Sender> senders) throws Exception {
        int rate = rates.stream().mapToInt(Integer::intValue).max().orElse(1000);
        long began = System.nanoTime();
        int round = 0;
        while (true) {
            StackCpu.Snapshot before = cpu.read();
            String phase = "warm-up-" + (++round);
            for (Kind kind : kinds) {
                current.put(kind, new Arrivals(phase));
            }
            paced(rate / kinds.size(), 5, phase, 0, kinds.stream().map(senders::get).toList());
            double compiler = cpu.read().since(before).compilerCores();
            double elapsed = (System.nanoTime() - began) / 1e9;
            System.out.printf("  warm-up round %d (%.0f s): compiler threads %.1f%% of a core%n", round, elapsed, compiler * 100);
            if ((compiler * 100 < jitQuietPercent && elapsed >= minWarmupSeconds) || elapsed >= maxWarmupSeconds) {
                System.out.printf("  warm-up done after %.0f s, JIT %s%n", elapsed, compiler * 100 < jitQuietPercent ? "quiet" : "NOT quiet yet");
                return;
            }
        }
    }

    /** One phase of a kind at a rate, added to its tally; prints where its CPU went and the requests it made. */
    private void phase(Kind kind, int rate, int round, Sender sender, Tally tally, StackCpu cpu, StackCpu.Window idle,
                       BrokerRequests requests) throws Exception {
        Arrivals arrivals = tally.arrivals;
        current.put(kind, arrivals);
        int arrivedBefore = arrivals.distinct();
        long failedBefore = failedSends.get();
        long[] mark = requests.mark();
        StackCpu.Snapshot before = cpu.read();
        int sent = paced(rate, seconds, arrivals.phase(), (long) round * rate * seconds, List.of(sender));
        long deadline = System.nanoTime() + 60 * SECOND;
        while (arrivals.distinct() - arrivedBefore < sent && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5)); // a benchmark's wait for the last arrival
        }
        StackCpu.Window spent = cpu.read().since(before);
        pause(2); // RocketMQ logs its request counts once a second
        Map<String, Long> counts = requests.since(mark);
        int arrived = arrivals.distinct() - arrivedBefore;
        long messages = Math.max(1, arrived);
        long failed = failedSends.get() - failedBefore;
        tally.sent += sent;
        tally.failed += failed;
        tally.aboveIdleNanos += spent.aboveIdleNanos(idle);
        tally.cpuNanos += spent.cpuNanos();
        tally.compilerNanos += Math.round(spent.compilerCores() * spent.wallNanos());
        tally.wallNanos += spent.wallNanos();
        System.out.printf("  %s at %,d msgs/s, round %d: %,d sent, %,d arrived, %d failed; %.3f CPU-ms/msg above idle (%.3f in all, "
                        + "%.2f cores); compiler threads %.1f%% of a core%n", kind, rate, round + 1, sent, arrived, failed,
                spent.aboveIdleNanos(idle) / 1e6 / messages, spent.cpuNanos() / 1e6 / messages, spent.cores(),
                spent.compilerCores() * 100);
        System.out.print(spent.breakdown(idle, messages, BREAKDOWN_FLOOR_MS));
        StringBuilder perMessage = new StringBuilder();
        counts.forEach((name, n) -> {
            if (n >= messages / 100) {
                perMessage.append(String.format("%s %.3f, ", name, (double) n / messages));
            }
        });
        System.out.println("      broker requests per message: " + perMessage);
    }

    /**
     * Sends at {@code rate} for {@code seconds} through each sender in turn, numbered from {@code firstSequence}; waits
     * for every send's outcome.
     */
    private int paced(int rate, int seconds, String phase, long firstSequence, List<Sender> senders) throws Exception {
        long interval = SECOND / rate;
        int count = rate * seconds;
        long next = System.nanoTime();
        for (int i = 0; i < count; i++) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait); // pacing the stream
            }
            for (Sender sender : senders) {
                window.acquire();
                sender.send(phase, firstSequence + i);
            }
            next += interval;
        }
        window.acquire(WINDOW);
        window.release(WINDOW);
        return count;
    }

    private void sent(Throwable failure) {
        if (failure != null) {
            failedSends.incrementAndGet();
        }
        window.release();
    }

    private Sender rawSender(List<DefaultMQProducer> producers, String topic) {
        SendCallback callback = new SendCallback() {
            @Override
            public void onSuccess(SendResult result) {
                sent(null);
            }

            @Override
            public void onException(Throwable e) {
                sent(e);
            }
        };
        return (phase, seq) -> {
            org.apache.rocketmq.common.message.Message m = new org.apache.rocketmq.common.message.Message(topic, body);
            m.putUserProperty(PHASE, phase);
            m.putUserProperty(SEQUENCE, Long.toString(seq));
            m.putUserProperty(SENT_NANOS, Long.toString(System.nanoTime()));
            producers.get((int) (seq % producers.size())).send(m, callback, 5_000);
        };
    }

    private static Message stamped(Message.Builder builder, String phase, long seq) {
        return builder.property(PHASE, phase).property(SEQUENCE, Long.toString(seq))
                .property(SENT_NANOS, Long.toString(System.nanoTime())).build();
    }

    private ConsumeResult sdkArrived(ReceivedMessage message) {
        Map<String, String> p = message.properties();
        current.get(Kind.SDK).arrived(p.get(PHASE), Long.parseLong(p.get(SEQUENCE)), Long.parseLong(p.get(SENT_NANOS)));
        return ConsumeResult.SUCCESS;
    }

    private static DefaultMQProducer rawProducer(Idc idc) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer(LocalPlatform.unique("bench-transit-raw-producer"));
        producer.setNamesrvAddr(idc.nameServerAddress());
        producer.setInstanceName("bench-transit-raw-" + idc.name());
        producer.start();
        return producer;
    }

    private DefaultMQPushConsumer rawConsumer(Idc idc, String group, String topic) throws Exception {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(idc.nameServerAddress());
        consumer.setInstanceName("bench-transit-raw-consumer-" + idc.name());
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            Arrivals arrivals = current.get(Kind.RAW);
            for (MessageExt m : messages) {
                arrivals.arrived(m.getUserProperty(PHASE), Long.parseLong(m.getUserProperty(SEQUENCE)),
                        Long.parseLong(m.getUserProperty(SENT_NANOS)));
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        return consumer;
    }

    private static Map<String, Long> processes(LocalPlatform platform) {
        Map<String, Long> pids = new LinkedHashMap<>();
        pids.put("this JVM", ProcessHandle.current().pid());
        for (Idc idc : platform.stack().idcs()) {
            idc.nameServer().pid().ifPresent(pid -> pids.put("ns " + idc.name(), pid));
            for (BrokerNode broker : idc.brokers()) {
                broker.pid().ifPresent(pid -> pids.put("broker " + broker.brokerName(), pid));
            }
        }
        return pids;
    }

    /** RocketMQ's per-second request counts of a broker, under the node's home directory (the testkit's child dir). */
    private static Path trafficLog(BrokerNode broker) {
        return broker.logFile().resolveSibling("logs").resolve("rocketmqlogs").resolve("broker_traffic.log");
    }

    private List<Figure> figures(int rate, Map<Kind, Result> results) {
        Result sdk = results.get(Kind.SDK);
        Result raw = results.get(Kind.RAW);
        List<Figure> figures = new ArrayList<>();
        if (sdk == null) {
            return figures;
        }
        String incomplete = String.format("%,d of %,d arrived, %d sends failed", sdk.arrived(), sdk.sent(), sdk.failed());
        String jit = String.format("compiler threads %.1f%% of a core; SDK lingerMs %s", sdk.compilerCores() * 100,
                lingerMs == null ? BatchConfig.DEFAULTS.linger().toMillis() : lingerMs);
        Figure.Builder cpu = Figure.of("T1", String.format("SDK paced transit %,d msgs/s: CPU-ms per message above idle", rate))
                .measured(sdk.cpuMsAboveIdle(), "CPU-ms/msg").target(Targets.T1_CPU_MS_PER_MESSAGE)
                .cpuMsPerMessage(sdk.cpuMsAboveIdle()).require(sdk.complete(), incomplete);
        Figure.Builder p99 = Figure.of("T1", String.format("SDK paced transit %,d msgs/s: p99 send to listener", rate))
                .measured(sdk.p99(), "ms").target(Targets.T1_P99_MS).require(sdk.complete(), incomplete);
        if (raw != null) {
            cpu.baseline(raw.cpuMsAboveIdle());
            p99.baseline(raw.p99());
            figures.add(cpu.note(String.format("baseline: raw clients; all JVMs %.3f (raw %.3f) with idle; %s", sdk.cpuMsTotal(),
                    raw.cpuMsTotal(), jit)).build());
            figures.add(Figure.of("T1", String.format("SDK vs raw CPU per message, paced %,d msgs/s", rate))
                    .measured(sdk.cpuMsAboveIdle(), "CPU-ms/msg").baseline(raw.cpuMsAboveIdle())
                    .target(Targets.T1_SDK_VS_RAW_CPU).cpuMsPerMessage(sdk.cpuMsAboveIdle())
                    .require(sdk.complete() && raw.complete(), incomplete + String.format("; raw %,d of %,d arrived, %d failed",
                            raw.arrived(), raw.sent(), raw.failed())).build());
            figures.add(p99.note(String.format("p50 SDK %.1f ms, raw %.1f ms; baseline: raw clients", sdk.p50(), raw.p50())).build());
        } else {
            figures.add(cpu.note(jit).build());
            figures.add(p99.note(String.format("p50 %.1f ms", sdk.p50())).build());
        }
        return figures;
    }

    private static void pause(int seconds) {
        long until = System.nanoTime() + seconds * SECOND;
        for (long left = until - System.nanoTime(); left > 0; left = until - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
