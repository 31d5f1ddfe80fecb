package io.lanemq.benchmarks.startup;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Consumer;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.Subscription;
import io.lanemq.benchmarks.report.Figure;
import io.lanemq.benchmarks.report.FigureBenchmark;
import io.lanemq.benchmarks.report.Targets;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.net.NetworkFaults;
import io.lanemq.testkit.net.PrivateNetwork;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * P5 at start-up on real brokers: IDC B is taken out before the application starts (its name server and broker
 * ports silently dropped when the benchmark runs in a network namespace of its own, {@code bin/netns/bin/java};
 * else killed with SIGKILL, since the host's network is never touched), then a client, a producer that sends one
 * message after another from its creation on, and a DIRECT subscription of a new group are created. Measures the time from the client's creation to its first message
 * consumed on IDC A, and, once B is back (the drop rules removed, or the killed IDC started again and registered), to
 * its first message consumed on B: no restart in between.
 */
@Command(name = "startup", mixinStandardHelpOptions = true,
        description = "P5 at start-up: an application started while IDC B is out (silent in a network namespace of its own, "
                + "else killed), time to its first message consumed on IDC A (target <= 2 s) and, after B is back, on B "
                + "(target <= 5 s).")
public final class StartDuringOutageBenchmark implements FigureBenchmark {
    private static final String TOPIC = "bench-startup";
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long FIRST_MESSAGE_CAP = 30 * SECOND;

    @Option(names = "--fault-seconds", defaultValue = "8",
            description = "How long IDC B stays out after the application started (default: ${DEFAULT-VALUE}).")
    int faultSeconds;

    @Option(names = "--send-interval-ms", defaultValue = "10",
            description = "Pause between the producer's sends (default: ${DEFAULT-VALUE}).")
    int sendIntervalMillis;

    @Override
    public List<Figure> measure() throws Exception {
        boolean silent = PrivateNetwork.isPrivate();
        String fault = silent ? "silent (ports dropped)" : "killed (no network namespace: run with bin/netns/bin/java for silent)";
        String group = LocalPlatform.unique("bench-startup");
        Map<String, Long> firstConsumedAt = new ConcurrentHashMap<>();
        try (LocalPlatform platform = LocalPlatform.start()) {
            platform.addTopic(TOPIC, 4, 50, 50, group);
            Idc idcA = platform.idcA();
            Idc idcB = platform.idcB();
            NetworkFaults faults = silent ? NetworkFaults.open() : null;
            try {
                NetworkFaults.Fault drop = silent ? faults.drop("IDC B silent at start", idcB.ports(), NetworkFaults.Direction.BOTH) : null;
                if (!silent) {
                    idcB.kill();
                }
                System.out.printf("P5 startup: IDC %s %s before the application starts%n", idcB.name(), fault);
                long startedAt = System.nanoTime();
                MessagingClient client = platform.client("bench-startup");
                long clientAt = System.nanoTime();
                Producer producer = client.createProducer(ProducerOptions.defaults());
                long producerAt = System.nanoTime();
                // The application sends as soon as its producer is ready, and its listener starts after.
                try (client; producer; Sender sender = new Sender(producer, sendIntervalMillis);
                     Consumer consumer = client.subscribe(Subscription.builder(TOPIC, group).build(), message -> {
                         firstConsumedAt.putIfAbsent(message.cluster(), System.nanoTime());
                         return ConsumeResult.SUCCESS;
                     })) {
                    long readyMillis = (System.nanoTime() - startedAt) / 1_000_000;
                    String steps = String.format("client %d ms, producer %d ms, subscription %d ms",
                            (clientAt - startedAt) / 1_000_000, (producerAt - clientAt) / 1_000_000,
                            readyMillis - (producerAt - startedAt) / 1_000_000);
                    long onA = waitFor(firstConsumedAt, idcA.clusterName(), startedAt);
                    System.out.printf("  client, producer and subscription ready in %d ms (%s); first message consumed on %s "
                            + "%d ms after the start%n", readyMillis, steps, idcA.clusterName(), onA);
                    LockSupport.parkNanos(Math.max(0, startedAt + faultSeconds * SECOND - System.nanoTime()));
                    long healedAt;
                    if (silent) {
                        drop.heal();
                        healedAt = System.nanoTime();
                    } else {
                        long restartAt = System.nanoTime();
                        idcB.start();
                        healedAt = System.nanoTime();
                        System.out.printf("  IDC %s restarted and registered in %d ms%n", idcB.name(), (healedAt - restartAt) / 1_000_000);
                    }
                    long beforeHeal = firstConsumedAt.containsKey(idcB.clusterName()) ? 1 : 0;
                    long onB = waitFor(firstConsumedAt, idcB.clusterName(), healedAt);
                    System.out.printf("  IDC %s back: first message consumed there %d ms later; %d sends acknowledged, %d failed%n",
                            idcB.name(), onB, sender.acknowledged.get(), sender.failed.get());
                    System.out.printf("RESULT P5 start_first_consumed_ms=%d (target <= 2000) %s; healed_first_consumed_ms=%d "
                                    + "(target <= 5000) %s; fault=%s%n",
                            onA, Targets.P5_START_FIRST_CONSUMED_MS.isMetBy(onA) ? "MET" : "MISSED",
                            onB, Targets.P5_HEALED_FIRST_CONSUMED_MS.isMetBy(onB) ? "MET" : "MISSED", silent ? "silent" : "killed");
                    String how = silent ? "silent" : "killed";
                    return List.of(
                            Figure.of("P5", "start-up, IDC B " + how + ": to the first message consumed on IDC A")
                                    .measured(onA, "ms").target(Targets.P5_START_FIRST_CONSUMED_MS)
                                    .require(onA >= 0, "no message consumed on A within " + FIRST_MESSAGE_CAP / SECOND + " s")
                                    .note(String.format("ready in %d ms (%s); B %s", readyMillis, steps, fault))
                                    .build(),
                            Figure.of("P5", "start-up, IDC B " + how + " for " + faultSeconds + " s: back to the first consumed on B")
                                    .measured(onB, "ms").target(Targets.P5_HEALED_FIRST_CONSUMED_MS)
                                    .require(onB >= 0 && beforeHeal == 0, onB < 0
                                            ? "no message consumed on B within " + FIRST_MESSAGE_CAP / SECOND + " s of its return"
                                            : "a message was consumed on B while it was out: the fault did not hold")
                                    .note(String.format("%,d sends acknowledged, %,d failed, one sender every %d ms",
                                            sender.acknowledged.get(), sender.failed.get(), sendIntervalMillis))
                                    .build());
                }
            } finally {
                if (faults != null) {
                    faults.close();
                }
            }
        }
    }

    /** Milliseconds from {@code from} to the first message consumed on {@code cluster}, waiting up to the cap; -1 if none. */
    private static long waitFor(Map<String, Long> firstConsumedAt, String cluster, long from) {
        long deadline = from + FIRST_MESSAGE_CAP;
        while (!firstConsumedAt.containsKey(cluster) && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(SECOND / 100);
        }
        Long at = firstConsumedAt.get(cluster);
        return at == null ? -1 : Math.max(0, (at - from) / 1_000_000);
    }

    /** One thread sending one message after another, from the producer's creation on, as an application would. */
    private static final class Sender implements AutoCloseable {
        final AtomicLong acknowledged = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        Sender(Producer producer, int intervalMillis) {
            byte[] body = "startup".getBytes(StandardCharsets.UTF_8);
            thread = new Thread(() -> {
                while (running.get()) {
                    try {
                        producer.send(Message.builder(TOPIC).body(body).build());
                        acknowledged.incrementAndGet();
                    } catch (MessagingException e) {
                        failed.incrementAndGet();
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(intervalMillis));
                }
            }, "bench-startup-sender");
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join();
        }
    }
}
