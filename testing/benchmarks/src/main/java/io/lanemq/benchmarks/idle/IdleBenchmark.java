package io.lanemq.benchmarks.idle;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Consumer;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.Subscription;
import io.lanemq.benchmarks.cpu.ProcessCpu;
import io.lanemq.benchmarks.delay.ScratchStore;
import io.lanemq.benchmarks.proxy.InProcessProxy;
import io.lanemq.benchmarks.report.Figure;
import io.lanemq.benchmarks.report.FigureBenchmark;
import io.lanemq.benchmarks.report.Targets;
import io.lanemq.config.ConsumptionMode;
import io.lanemq.delay.server.DelayServer;
import io.lanemq.delay.server.DelayServerOptions;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.BrokerNode;
import io.lanemq.testkit.BrokerProfile;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.StackSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * P8: the CPU of the embedded dual-IDC stack with no traffic, first alone (name servers and brokers, no client),
 * then with what an application and the platform keep connected: an SDK producer, a DIRECT consumer, the delay
 * server, and the consumer proxy pushing to one PROXY consumer. Each window follows a settle period, so start-up work
 * (JIT, broker warm-up, first rebalances) is not counted; the figure is what the processes spend doing nothing.
 *
 * <p>Split by process (this JVM, each name server, each broker) and by thread: the top threads of this JVM from
 * {@link java.lang.management.ThreadMXBean}, and of each child JVM from the operating system. That split is the
 * point: it names what to cut next.
 */
@Command(name = "idle", mixinStandardHelpOptions = true,
        description = "P8: CPU of the stack with no traffic, alone (target <= 5%% of one core) and with an SDK producer and "
                + "consumers, the delay server and the consumer proxy connected (target <= 10%%), per process and thread.")
public final class IdleBenchmark implements FigureBenchmark {
    private static final String TOPIC = "bench-idle";
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Option(names = "--settle-seconds", defaultValue = "20", description = "Wait before each window (default: ${DEFAULT-VALUE}).")
    int settleSeconds;

    @Option(names = "--window-seconds", defaultValue = "30", description = "Length of each measured window (default: ${DEFAULT-VALUE}).")
    int windowSeconds;

    @Option(names = "--test-client-intervals", description = "Clients heartbeat, read routes and commit offsets every "
            + "second, as in the tests, instead of RocketMQ's own intervals (30 s, 30 s, 5 s) as in production.")
    boolean testClientIntervals;

    @Option(names = "--broker-profile", defaultValue = "DEFAULT", description = "The brokers' settings: DEFAULT "
            + "(RocketMQ's) or TUNED (deploy/broker/broker.conf) (default: ${DEFAULT-VALUE}).")
    BrokerProfile brokerProfile;

    @Option(names = "--top-threads", defaultValue = "10", description = "Threads of this JVM listed per window (default: ${DEFAULT-VALUE}).")
    int topThreads;

    @Override
    public List<Figure> measure() throws Exception {
        String directGroup = LocalPlatform.unique("bench-idle-direct");
        String proxyGroup = LocalPlatform.unique("bench-idle-proxied");
        System.out.printf("P8 idle: no traffic; each window %d s after %d s of settling; client intervals: %s; brokers: %s%n",
                windowSeconds, settleSeconds, testClientIntervals ? "the tests' (1 s)" : "RocketMQ's own (production)",
                brokerProfile);
        try (ScratchStore store = ScratchStore.create("lanemq-idle-bench");
             LocalPlatform platform = LocalPlatform.start(StackSpec.dualIdc().toBuilder().brokerProfile(brokerProfile).build())) {
            if (!testClientIntervals) {
                platform.productionClientIntervals();
            }
            // Topics before the first window, so both windows measure brokers holding the same topics.
            platform.enableDelay().addTopic(TOPIC, 8, 50, 50, directGroup, proxyGroup);
            Window alone = window(platform, "the stack alone (no client)");
            DelayServerOptions delayOptions = DelayServerOptions.builder("file:" + platform.writeConfig(), store.path())
                    .metricsPort(-1).build();
            Receipts direct = new Receipts();
            Receipts proxied = new Receipts();
            try (InProcessProxy proxy = InProcessProxy.start(platform);
                 // A PROXY-mode group needs the proxy named in the configuration, so the mode comes second.
                 MessagingClient client = platform.consumerMode(TOPIC, proxyGroup, ConsumptionMode.PROXY).client("bench-idle");
                 DelayServer delayServer = DelayServer.start(delayOptions);
                 Producer producer = client.createProducer(ProducerOptions.defaults());
                 Consumer directConsumer = client.subscribe(Subscription.builder(TOPIC, directGroup).build(), direct::received);
                 MessagingClient proxyClient = proxy.client();
                 Consumer proxiedConsumer = proxyClient.subscribe(Subscription.builder(TOPIC, proxyGroup).build(), proxied::received)) {
                connect(producer, platform, direct, proxied);
                Window connected = window(platform, "the stack with an SDK producer, a DIRECT consumer, the delay server and "
                        + "the consumer proxy with one PROXY consumer, all connected");
                return List.of(aloneFigure(alone, brokers()), connectedFigure(connected, alone, brokers()));
            }
        }
    }

    /**
     * Sends a message every 200 ms (half of them delayed by 300 ms through the delay server) until each group has
     * received plain and delayed messages from both clusters: every client has then connected to every broker it
     * talks to. New groups start from the latest offset, so the messages before their first rebalance are not
     * counted on; the loop simply goes on until the later ones arrive.
     */
    private static void connect(Producer producer, LocalPlatform platform, Receipts direct, Receipts proxied) throws Exception {
        Set<String> clusters = Set.of(platform.idcA().clusterName(), platform.idcB().clusterName());
        long start = System.nanoTime();
        long deadline = start + 120 * SECOND;
        int sent = 0;
        while (!(direct.complete(clusters) && proxied.complete(clusters))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("clients not connected within 120 s: DIRECT group received " + direct
                        + ", PROXY group " + proxied);
            }
            Message.Builder message = Message.builder(TOPIC).body(new byte[300]);
            if (sent % 2 == 1) {
                message.deliverAfter(Duration.ofMillis(300)).property(Receipts.DELAYED, "true");
            }
            producer.send(message.build());
            sent++;
            LockSupport.parkNanos(SECOND / 5); // paces the sends; the loop's condition is the outcome waited for
        }
        System.out.printf("  connected after %.1f s: %d messages sent; DIRECT group received %s, PROXY group %s%n",
                (System.nanoTime() - start) / 1e9, sent, direct, proxied);
    }

    /** Which kinds of message from which clusters a group has received. */
    private static final class Receipts {
        static final String DELAYED = "bench-idle-delayed";
        private final Set<String> seen = ConcurrentHashMap.newKeySet();

        ConsumeResult received(ReceivedMessage message) {
            seen.add(message.cluster() + (message.properties().containsKey(DELAYED) ? " delayed" : " plain"));
            return ConsumeResult.SUCCESS;
        }

        boolean complete(Set<String> clusters) {
            return clusters.stream().allMatch(c -> seen.contains(c + " plain") && seen.contains(c + " delayed"));
        }

        @Override
        public String toString() {
            return seen.stream().sorted().collect(Collectors.joining(", ", "[", "]"));
        }
    }

    /** One measured window: this JVM and each child process of the stack. */
    private record Window(ProcessCpu.Spent self, List<ProcessCpu.Spent> children) {

        double childrenPercent() {
            return children.stream().mapToDouble(ProcessCpu.Spent::percentOfCore).sum();
        }

        String childrenSplit() {
            return children.stream().map(c -> String.format("%s %.1f", c.process(), c.percentOfCore()))
                    .collect(Collectors.joining(", "));
        }
    }

    private Window window(LocalPlatform platform, String what) {
        System.out.printf("  %s: settling %d s, then measuring %d s%n", what, settleSeconds, windowSeconds);
        pause(settleSeconds); // nothing to wait for: the quiet after it is what is measured
        Map<String, Long> children = childProcesses(platform);
        ProcessCpu selfBefore = ProcessCpu.self("this JVM");
        List<ProcessCpu> childrenBefore = read(children);
        long began = System.nanoTime();
        pause(windowSeconds);
        ProcessCpu selfAfter = ProcessCpu.self("this JVM");
        List<ProcessCpu> childrenAfter = read(children);
        long wall = System.nanoTime() - began;
        List<ProcessCpu.Spent> spent = new ArrayList<>();
        for (int i = 0; i < childrenAfter.size(); i++) {
            spent.add(childrenAfter.get(i).since(childrenBefore.get(i), wall));
        }
        Window window = new Window(selfAfter.since(selfBefore, wall), spent);
        print(window);
        return window;
    }

    /** Parks for the whole time: a park may return early, and the window's length is what is measured. */
    private static void pause(int seconds) {
        long until = System.nanoTime() + seconds * SECOND;
        for (long left = until - System.nanoTime(); left > 0; left = until - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    /** The stack's child JVMs by a readable name: each IDC's name server and brokers. */
    private static Map<String, Long> childProcesses(LocalPlatform platform) {
        Map<String, Long> pids = new LinkedHashMap<>();
        for (Idc idc : platform.stack().idcs()) {
            idc.nameServer().pid().ifPresent(pid -> pids.put("name server " + idc.name(), pid));
            for (BrokerNode broker : idc.brokers()) {
                broker.pid().ifPresent(pid -> pids.put("broker " + broker.brokerName(), pid));
            }
        }
        return pids;
    }

    private static List<ProcessCpu> read(Map<String, Long> pids) {
        return pids.entrySet().stream().map(e -> ProcessCpu.of(e.getKey(), e.getValue())).toList();
    }

    private void print(Window window) {
        for (ProcessCpu.Spent child : window.children()) {
            System.out.printf("    %-28s %5.1f%% of one core; top threads: %s%n", child.process(), child.percentOfCore(),
                    threads(child, 4));
        }
        System.out.printf("    %-28s %5.1f%%%n", "stack (child JVMs) together", window.childrenPercent());
        ProcessCpu.Spent self = window.self();
        System.out.printf("    %-28s %5.1f%%; top threads:%n", "this JVM", self.percentOfCore());
        self.threads().stream().limit(topThreads).forEach(t -> System.out.printf("      %5.2f%%  %s%n", self.percentOfCore(t), t.name()));
        // ThreadMXBean sees Java threads only: the rest of the process's time went to GC, JIT and VM threads (or to
        // Java threads that ended within the window).
        long inJavaThreads = self.threads().stream().mapToLong(ProcessCpu.ThreadCpu::cpuNanos).sum();
        System.out.printf("      %5.2f%%  (GC, JIT compiler, VM threads, threads that ended)%n",
                self.percentOfCore(Math.max(0, self.cpuNanos() - inJavaThreads)));
        System.out.printf("    this JVM's top thread families (ids and numbers folded; %d Java threads spent CPU):%n",
                self.threads().size());
        self.families().stream().limit(topThreads).forEach(f ->
                System.out.printf("      %5.2f%%  %s (%d threads)%n", self.percentOfCore(f.cpuNanos()), f.name(), f.threads()));
    }

    private static String threads(ProcessCpu.Spent spent, int top) {
        return spent.threads().stream().limit(top).map(t -> String.format("%s %.2f%%", t.name(), spent.percentOfCore(t)))
                .collect(Collectors.joining(", "));
    }

    /** Names the profile in the figures when it is not RocketMQ's default, so a table never mixes the two unawares. */
    private String brokers() {
        return brokerProfile == BrokerProfile.DEFAULT ? "" : brokerProfile.name().toLowerCase() + " ";
    }

    private static Figure aloneFigure(Window alone, String brokers) {
        double percent = alone.childrenPercent();
        System.out.printf("RESULT P8 idle_stack_alone=%.1f%% of one core target<=5%% %s%n", percent,
                Targets.P8_IDLE_STACK_PERCENT.isMetBy(percent) ? "MET" : "MISSED");
        return Figure.of("P8", "idle: the stack alone (name servers, " + brokers + "brokers)")
                .measured(percent, "% of a core").target(Targets.P8_IDLE_STACK_PERCENT)
                .note(alone.childrenSplit() + "; this JVM (no client yet) " + String.format("%.1f", alone.self().percentOfCore())
                        + ", not counted").build();
    }

    private static Figure connectedFigure(Window connected, Window alone, String brokers) {
        double percent = connected.childrenPercent() + connected.self().percentOfCore();
        System.out.printf("RESULT P8 idle_connected=%.1f%% of one core target<=10%% %s%n", percent,
                Targets.P8_IDLE_CONNECTED_PERCENT.isMetBy(percent) ? "MET" : "MISSED");
        ProcessCpu.Spent self = connected.self();
        String topThread = self.families().isEmpty() ? "" : String.format("; its top thread family %s (%d threads) %.1f",
                self.families().get(0).name(), self.families().get(0).threads(), self.percentOfCore(self.families().get(0).cpuNanos()));
        return Figure.of("P8", "idle: " + brokers + "stack + SDK producer, consumers, delay server, proxy")
                .measured(percent, "% of a core").baseline(alone.childrenPercent())
                .target(Targets.P8_IDLE_CONNECTED_PERCENT)
                .note(String.format("this JVM (clients, delay server, proxy) %.1f%s; %s; baseline: the stack alone",
                        connected.self().percentOfCore(), topThread, connected.childrenSplit())).build();
    }
}
