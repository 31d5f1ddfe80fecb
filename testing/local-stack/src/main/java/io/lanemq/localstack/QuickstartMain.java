package io.lanemq.localstack;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Consumer;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.SendResult;
import io.lanemq.api.Subscription;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The main job until the dial test replaces it: starts the local dual-IDC stack, sends messages to
 * a logic topic split over both IDCs, consumes them through a dual-connected consumer, and prints
 * per-cluster counts. Exits 0 only when every message sent was consumed exactly once.
 */
@Command(name = "quickstart", mixinStandardHelpOptions = true,
        description = "Start a local dual-IDC RocketMQ stack, send to a logic topic and consume, printing per-cluster counts.")
public final class QuickstartMain implements Callable<Integer> {
    private static final String TOPIC = "quickstart-orders";
    private static final String GROUP = "quickstart-billing";

    @Option(names = "--messages", defaultValue = "2000", description = "Messages to send (default: ${DEFAULT-VALUE}).")
    int messages;

    @Option(names = "--weight-a", defaultValue = "50", description = "Send weight of IDC A (default: ${DEFAULT-VALUE}).")
    int weightA;

    @Option(names = "--weight-b", defaultValue = "50", description = "Send weight of IDC B (default: ${DEFAULT-VALUE}).")
    int weightB;

    @Option(names = "--timeout-seconds", defaultValue = "120", description = "How long to wait for consumption (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    public static void main(String[] args) {
        LoggingSetup.pinLogback();
        System.exit(new CommandLine(new QuickstartMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        long start = System.nanoTime();
        System.out.println("Starting the local dual-IDC stack (two name servers, two brokers)...");
        try (LocalPlatform platform = LocalPlatform.start()) {
            System.out.printf("Stack ready in %.1f s: %s=%s, %s=%s%n", (System.nanoTime() - start) / 1e9,
                    platform.idcA().name(), platform.idcA().nameServerAddress(), platform.idcB().name(), platform.idcB().nameServerAddress());
            platform.addTopic(TOPIC, 8, weightA, weightB, GROUP);
            System.out.println("Platform configuration: " + platform.writeConfig());
            return run(platform);
        }
    }

    private int run(LocalPlatform platform) throws Exception {
        Map<String, AtomicInteger> consumedByCluster = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> deliveriesById = new ConcurrentHashMap<>();
        Map<String, Integer> sentByCluster = new TreeMap<>();
        int failed = 0;
        try (MessagingClient client = platform.client("quickstart");
             Consumer consumer = client.subscribe(Subscription.builder(TOPIC, GROUP).build(), message -> {
                 deliveriesById.computeIfAbsent(message.messageId(), id -> new AtomicInteger()).incrementAndGet();
                 consumedByCluster.computeIfAbsent(message.cluster(), c -> new AtomicInteger()).incrementAndGet();
                 return ConsumeResult.SUCCESS;
             });
             Producer producer = client.createProducer(ProducerOptions.defaults())) {
            long sendStart = System.nanoTime();
            for (int i = 0; i < messages; i++) {
                try {
                    SendResult result = producer.send(Message.builder(TOPIC).keys("order-" + i)
                            .body(("{\"order\":" + i + "}").getBytes(StandardCharsets.UTF_8)).build());
                    sentByCluster.merge(result.cluster(), 1, Integer::sum);
                } catch (io.lanemq.api.MessagingException e) {
                    failed++;
                    System.err.println("send failed: " + e.getMessage());
                }
            }
            double sendSeconds = (System.nanoTime() - sendStart) / 1e9;
            System.out.printf("Sent %d messages in %.1f s (%.0f msgs/s, %d failed)%n", messages - failed, sendSeconds,
                    (messages - failed) / sendSeconds, failed);
            int expected = messages - failed;
            long deadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
            while (deliveriesById.size() < expected && System.nanoTime() < deadline) {
                printProgress(deliveriesById.size(), expected);
                Thread.sleep(500); // a progress display, not a test: it waits for the consumer to catch up
            }
            printTable(platform, sentByCluster, consumedByCluster);
            long duplicates = deliveriesById.values().stream().filter(n -> n.get() > 1).count();
            boolean complete = deliveriesById.size() == expected && failed == 0;
            System.out.printf("%s: consumed %d of %d distinct messages, %d delivered more than once%n",
                    complete ? "OK" : "INCOMPLETE", deliveriesById.size(), expected, duplicates);
            return complete ? 0 : 1;
        }
    }

    private static void printProgress(int consumed, int expected) {
        System.out.printf("  consumed %d / %d%n", consumed, expected);
    }

    private static void printTable(LocalPlatform platform, Map<String, Integer> sent, Map<String, AtomicInteger> consumed) {
        System.out.println();
        System.out.printf("%-12s %-8s %10s %10s%n", "cluster", "idc", "sent", "consumed");
        for (var idc : platform.stack().idcs()) {
            String cluster = idc.clusterName();
            AtomicInteger got = consumed.get(cluster);
            System.out.printf("%-12s %-8s %10d %10d%n", cluster, idc.name(), sent.getOrDefault(cluster, 0), got == null ? 0 : got.get());
        }
        System.out.println();
    }
}
