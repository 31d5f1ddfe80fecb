package io.lanemq.delay.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.Message;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.service.http.Readiness;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.net.NetworkFaults;
import io.lanemq.testkit.net.NetworkFaults.Direction;
import io.lanemq.testkit.net.NetworkFaults.Fault;
import io.micrometer.core.instrument.Counter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A delay server started while IDC B is silent (its name server and broker drop every packet, both ways, from before
 * the start): it must be SERVING within 2 s with IDC B named as not read in {@code /readyz}, deliver on time what is
 * stored on IDC A and due meanwhile, read IDC B within 5 s of the heal (one attach, the failed attempts counted), and
 * lose nothing acknowledged. Runs in its own network namespace (bin/netns/bin/java), where the rules live.
 */
class StartDuringOutageFaultIT {
    private static final long FAULT_MS = 5_000;
    private static final long AFTER_HEAL_MS = 4_000;
    private static final long MIN_DELAY_MS = 500;
    private static final long MAX_DELAY_MS = 1_500;
    private static final long SEND_EVERY_MS = 25;
    /** On time: the server's due-time precision plus a delivery round trip, far below the SDK's send timeout. */
    private static final long ON_TIME_MS = 1_000;

    @TempDir
    Path dir;

    /** One delayed send: when it is due and which cluster stored it (null until acknowledged). */
    private static final class Sent {
        final String key;
        final long dueAt;
        volatile String cluster;
        volatile boolean answered;

        Sent(String key, long dueAt) {
            this.key = key;
            this.dueAt = dueAt;
        }

        boolean answered() {
            return answered;
        }
    }

    @Test
    void aServerStartedWhileIdcBIsSilentServesIdcAOnTimeAndReadsIdcBAfterTheHeal() throws Exception {
        try (NetworkFaults faults = NetworkFaults.open()) {
            Idc victim = RocketMqStack.shared().idc("idc-b");
            AtomicReference<Fault> fault = new AtomicReference<>();
            // The topics exist before the outage; the application's client starts in it, as in a real one (everything
            // restarts), so its producer starts with IDC B out of rotation.
            try (DelayPlatform p = new DelayPlatform(() -> fault.set(faults.drop("partition of " + victim.name(),
                    victim.ports(), Direction.BOTH)))) {
                startDuringTheOutage(p, victim, fault.get());
            } finally {
                if (fault.get() != null) {
                    fault.get().heal();
                }
            }
        }
    }

    private void startDuringTheOutage(DelayPlatform p, Idc victim, Fault fault) throws Exception {
        String healthy = p.platform.idcA().clusterName();
        String silent = victim.clusterName();
        long begin = System.nanoTime();
        try (DelayServer server = p.startServer(dir.resolve("store"), b -> b)) {
            long readyMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin);
            String readyz = server.readiness().health().text();
            assertThat(server.readiness().phase()).isEqualTo(Readiness.Phase.SERVING);
            assertThat(server.readiness().health().up()).as("/readyz while IDC B is silent: %s", readyz).isTrue();
            assertThat(readyz).contains("cluster=" + silent + " reading=false (not attached since")
                    .contains("cluster=" + healthy + " reading=true");

            Map<String, Sent> sent = new ConcurrentHashMap<>();
            AtomicInteger sequence = new AtomicInteger();
            ScheduledExecutorService sender = Executors.newSingleThreadScheduledExecutor();
            sender.scheduleAtFixedRate(() -> send(p, sent, sequence), 0, SEND_EVERY_MS, TimeUnit.MILLISECONDS);
            long startedAt = System.currentTimeMillis();
            await().atMost(Duration.ofMillis(FAULT_MS + 10_000))
                    .until(() -> System.currentTimeMillis() >= startedAt + FAULT_MS);
            fault.heal();
            long healedAt = System.currentTimeMillis();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                    .until(() -> attachAttempts(server, silent, SdkMetrics.AttachOutcome.ATTACHED) > 0);
            long attachMillis = System.currentTimeMillis() - healedAt;
            await().atMost(Duration.ofMillis(AFTER_HEAL_MS + 10_000))
                    .until(() -> System.currentTimeMillis() >= healedAt + AFTER_HEAL_MS);
            sender.shutdown();
            assertThat(sender.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> sent.values().stream().allMatch(Sent::answered));
            List<Sent> acknowledged = sent.values().stream().filter(s -> s.cluster != null).toList();
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> acknowledged.stream().allMatch(s -> p.arrivals.countByKey.containsKey(s.key)));
            // Stored on A and due during the outage: each must have arrived within ON_TIME_MS of its due time.
            Map<String, Long> firstArrival = new ConcurrentHashMap<>();
            p.arrivals.all.forEach(a -> firstArrival.merge(a.key(), a.at(), Math::min));
            List<Sent> dueOnA = acknowledged.stream()
                    .filter(s -> healthy.equals(s.cluster) && s.dueAt < healedAt).toList();
            long[] lateness = dueOnA.stream().mapToLong(s -> Math.max(0, firstArrival.get(s.key) - s.dueAt))
                    .sorted().toArray();
            long storedOnB = acknowledged.stream().filter(s -> silent.equals(s.cluster)).count();
            long duplicated = p.arrivals.countByKey.values().stream().filter(n -> n.get() > 1).count();
            double unreachable = attachAttempts(server, silent, SdkMetrics.AttachOutcome.UNREACHABLE);
            System.out.printf("Delay server started while %s silent: SERVING in %d ms; %d delayed messages stored on "
                            + "%s came due during the outage, arrival minus due p50 %d ms, p99 %d ms, max %d ms; healed at "
                            + "%.1f s, %s read %d ms after the heal (%.0f failed attach attempts before, 1 attach); %d "
                            + "sent, %d acknowledged (%d on %s after the heal), 0 lost, %d duplicated%n",
                    victim.name(), readyMillis, dueOnA.size(), healthy, at(lateness, 50), at(lateness, 99),
                    at(lateness, 100), (healedAt - startedAt) / 1e3, silent, attachMillis, unreachable, sent.size(),
                    acknowledged.size(), storedOnB, silent, duplicated);

            assertThat(readyMillis).as("time to SERVING (ms)").isLessThanOrEqualTo(2_000);
            assertThat(dueOnA).as("messages stored on %s and due during the outage", healthy).isNotEmpty();
            assertThat(at(lateness, 100)).as("latest arrival minus due on %s during the outage (ms)", healthy)
                    .isLessThanOrEqualTo(ON_TIME_MS);
            assertThat(attachMillis).as("%s read after the heal (ms)", silent).isLessThanOrEqualTo(5_000);
            assertThat(unreachable).as("failed attach attempts on %s, counted", silent).isPositive();
            assertThat(attachAttempts(server, silent, SdkMetrics.AttachOutcome.ATTACHED)).isEqualTo(1);
            assertThat(storedOnB).as("messages stored on %s after the heal, and delivered", silent).isPositive();
            assertThat(server.readiness().health().text()).contains("cluster=" + silent + " reading=true");
        }
    }

    private static void send(DelayPlatform p, Map<String, Sent> sent, AtomicInteger sequence) {
        long now = System.currentTimeMillis();
        long due = now + ThreadLocalRandom.current().nextLong(MIN_DELAY_MS, MAX_DELAY_MS + 1);
        String key = "s-" + sequence.getAndIncrement();
        Sent s = new Sent(key, due);
        sent.put(key, s);
        p.producer.sendAsync(Message.builder(DelayPlatform.TOPIC).keys(key)
                        .property(Arrivals.DUE_AT, Long.toString(due)).property(Arrivals.SENT_AT, Long.toString(now))
                        .body(key.getBytes(StandardCharsets.UTF_8)).deliverAt(Instant.ofEpochMilli(due)).build())
                .whenComplete((result, failure) -> {
                    s.cluster = failure == null ? result.cluster() : null;
                    s.answered = true;
                });
    }

    private static double attachAttempts(DelayServer server, String cluster, SdkMetrics.AttachOutcome outcome) {
        return server.registry().find(SdkMetrics.CONSUMER_ATTACH_ATTEMPTS).tag(SdkMetrics.TAG_CLUSTER, cluster)
                .tag(SdkMetrics.TAG_OUTCOME, outcome.tagValue()).counters().stream().mapToDouble(Counter::count).sum();
    }

    /** The {@code percent}th percentile of sorted values, -1 when none. */
    private static long at(long[] sorted, int percent) {
        if (sorted.length == 0) {
            return -1;
        }
        int index = (int) Math.ceil(percent / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }
}
