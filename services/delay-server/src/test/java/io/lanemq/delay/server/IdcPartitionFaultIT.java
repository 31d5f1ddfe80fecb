package io.lanemq.delay.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.lanemq.api.Message;
import io.lanemq.api.Producer;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.net.NetworkFaults;
import io.lanemq.testkit.net.NetworkFaults.Direction;
import io.lanemq.testkit.net.NetworkFaults.Fault;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A real delay server on the dual-IDC stack while IDC B fails silently: every packet to and from its name
 * server and broker is dropped for {@value #FAULT_SECONDS} s, nothing refuses. Delayed messages (due
 * {@value #MIN_DELAY_MS}-{@value #MAX_DELAY_MS} ms ahead) are sent steadily through the SDK to both IDCs
 * throughout. Those stored on IDC A that come due during the partition must be delivered to the logic topic
 * during the partition, on time (the server's cluster-B side must not hold up its cluster-A side); after the heal
 * every acknowledged delayed message must arrive (0 lost), and the server, alone in its group, must never have
 * left a queue to anyone else. Runs in its own network namespace (bin/netns/bin/java), where the rules live.
 */
class IdcPartitionFaultIT {
    private static final int FAULT_SECONDS = 15;
    private static final long MIN_DELAY_MS = 2_000;
    private static final long MAX_DELAY_MS = 4_000;
    private static final long SEND_EVERY_MS = 20;
    /**
     * On time: LocalPlatform's {@code producer.sendTimeoutMs}, the SDK's bound on any send, failover included (a
     * delivery whose first attempt goes to the silent IDC costs {@code failoverAfterMs}, 1 s, once).
     */
    private static final long ON_TIME_MS = 5_000;
    /** How ClusterDelayService logs the queues its rebalance gave it. */
    private static final String ASSIGNMENT = "Cluster {}: this server now reads {} of {} queues";
    private static final Pattern READS = Pattern.compile("this server now reads (\\d+) of (\\d+) queues");

    @TempDir
    Path dir;

    /** One delayed send: what was asked, and what the SDK answered. */
    private static final class Sent {
        final String key;
        final long sentAt;
        final long dueAt;
        volatile String cluster;
        /** The queue of the internal delay topic that stored it. */
        volatile int queueId = -1;
        volatile Throwable failure;

        Sent(String key, long sentAt, long dueAt) {
            this.key = key;
            this.sentAt = sentAt;
            this.dueAt = dueAt;
        }

        boolean acknowledged() {
            return cluster != null;
        }
    }

    /** Sends one delayed message every {@value #SEND_EVERY_MS} ms with {@code sendAsync}, never waiting for one. */
    private static final class SteadySender implements AutoCloseable {
        final Map<String, Sent> sent = new ConcurrentHashMap<>();
        private final AtomicInteger sequence = new AtomicInteger();
        private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "partition-it-sender");
            t.setDaemon(true);
            return t;
        });

        SteadySender(Producer producer) {
            timer.scheduleAtFixedRate(() -> sendOne(producer), 0, SEND_EVERY_MS, TimeUnit.MILLISECONDS);
        }

        private void sendOne(Producer producer) {
            long now = System.currentTimeMillis();
            long due = now + ThreadLocalRandom.current().nextLong(MIN_DELAY_MS, MAX_DELAY_MS + 1);
            String key = "p-" + sequence.getAndIncrement();
            Sent s = new Sent(key, now, due);
            sent.put(key, s);
            Message message = Message.builder(DelayPlatform.TOPIC).keys(key)
                    .property(Arrivals.DUE_AT, Long.toString(due)).property(Arrivals.SENT_AT, Long.toString(now))
                    .body(("body of " + key).getBytes(StandardCharsets.UTF_8)).deliverAt(Instant.ofEpochMilli(due)).build();
            producer.sendAsync(message).whenComplete((result, failure) -> {
                if (failure == null) {
                    s.queueId = result.queueId();
                    s.cluster = result.cluster();
                } else {
                    s.failure = failure;
                }
            });
        }

        /** Sends started in [from, to) and acknowledged by {@code cluster}. */
        long acknowledgedOn(String cluster, long from, long to) {
            return sent.values().stream().filter(s -> cluster.equals(s.cluster) && s.sentAt >= from && s.sentAt < to)
                    .count();
        }

        /** Stops sending; sends under way still complete. Idempotent. */
        @Override
        public void close() throws InterruptedException {
            timer.shutdown();
            timer.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void theHealthyIdcsDelayedMessagesAreDeliveredOnTimeDuringASilentPartitionAndNothingIsLostAfterTheHeal()
            throws Exception {
        // The server's queue assignments, as its rebalance listener logs them: a lone server must read every queue.
        Logger serviceLog = (Logger) LoggerFactory.getLogger(ClusterDelayService.class);
        ListAppender<ILoggingEvent> serviceEvents = new ListAppender<>();
        serviceEvents.start();
        serviceLog.addAppender(serviceEvents);
        try {
            run(serviceEvents);
        } finally {
            serviceLog.detachAppender(serviceEvents);
        }
    }

    private void run(ListAppender<ILoggingEvent> serviceEvents) throws Exception {
        try (NetworkFaults faults = NetworkFaults.open();
             DelayPlatform p = new DelayPlatform();
             DelayServer server = p.startServer(dir.resolve("store"), b -> b)) {
            p.warmUp();
            try (SteadySender sender = new SteadySender(p.producer)) {
                partitionAndHeal(p, server, faults, sender, serviceEvents);
            }
        }
    }

    private void partitionAndHeal(DelayPlatform p, DelayServer server, NetworkFaults faults, SteadySender sender,
            ListAppender<ILoggingEvent> serviceEvents) throws Exception {
        Idc victim = p.platform.idcB();
        String healthyCluster = p.platform.idcA().clusterName();
        String victimCluster = victim.clusterName();
        long began = System.currentTimeMillis();
        // Steady on both sides first: both clusters acknowledged delayed messages, and some of them arrived.
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250)).until(() -> {
            long now = System.currentTimeMillis();
            return now - began >= 8_000 && sender.acknowledgedOn(healthyCluster, now - 3_000, now) >= 30
                    && sender.acknowledgedOn(victimCluster, now - 3_000, now) >= 30 && p.arrivals.distinct() >= 100;
        });

        double scheduledOnHealthyAtCut = counter(server, DelayServerMetrics.SCHEDULED, healthyCluster);
        long cutAt = System.currentTimeMillis();
        Fault fault = faults.drop("partition of " + victim.name(), victim.ports(), Direction.BOTH);
        await().atMost(Duration.ofSeconds(FAULT_SECONDS + 10)).pollInterval(Duration.ofMillis(100))
                .until(() -> System.currentTimeMillis() >= cutAt + FAULT_SECONDS * 1_000L);
        long beforeHeal = System.currentTimeMillis();
        Map<String, Arrivals.Arrival> arrivedBeforeHeal = firstArrivals(p.arrivals);
        // Stored on the healthy IDC and due during the partition, early enough to arrive on time before it healed.
        List<Sent> healthyDue = sender.sent.values().stream()
                .filter(s -> healthyCluster.equals(s.cluster) && s.dueAt >= cutAt
                        && s.dueAt <= beforeHeal - ON_TIME_MS).toList();
        List<Sent> missing = healthyDue.stream().filter(s -> !arrivedBeforeHeal.containsKey(s.key)
                || arrivedBeforeHeal.get(s.key).at() - s.dueAt > ON_TIME_MS).toList();
        if (!missing.isEmpty()) {
            System.out.printf("[IdcPartitionFaultIT] %d of %d messages stored on %s and due during the partition "
                    + "have not arrived on time (e.g. %s); threads of this JVM (delay server included):%n%s%n", missing.size(),
                    healthyDue.size(), healthyCluster, missing.get(0).key, threadDump());
        }
        double scheduledOnHealthy = counter(server, DelayServerMetrics.SCHEDULED, healthyCluster) - scheduledOnHealthyAtCut;
        double scheduledOnVictimAtHeal = counter(server, DelayServerMetrics.SCHEDULED, victimCluster);
        fault.heal();
        long healedAt = System.currentTimeMillis();
        long dropped = fault.droppedPackets();

        List<Arrivals.Arrival> healthyArrivals = healthyDue.stream().map(s -> arrivedBeforeHeal.get(s.key))
                .filter(Objects::nonNull).toList();
        long sentDuring = healthyDue.stream().filter(s -> s.sentAt >= cutAt).count();
        System.out.printf("[IdcPartitionFaultIT] partition of %s for %d s, %d packets dropped. Stored on %s and due "
                        + "during it, at least %d s before the heal: %d (%d of them sent during it), %d arrived; arrival "
                        + "minus due %s; "
                        + "the server's copy born on the logic topic minus due %s, %d over 100 ms (a first attempt on "
                        + "the silent IDC costs failoverAfterMs, 1 s), %d over 1,100 ms. The server stored %.0f records "
                        + "read from %s during it. Sends acknowledged during it: %d on %s, %d on %s%n",
                victim.name(), FAULT_SECONDS, dropped, healthyCluster, ON_TIME_MS / 1_000, healthyDue.size(), sentDuring,
                healthyArrivals.size(), stats(healthyArrivals.stream().mapToLong(a -> a.at() - a.dueAt())),
                stats(healthyArrivals.stream().mapToLong(a -> a.deliveredAt() - a.dueAt())),
                healthyArrivals.stream().filter(a -> a.deliveredAt() - a.dueAt() > 100).count(),
                healthyArrivals.stream().filter(a -> a.deliveredAt() - a.dueAt() > 1_100).count(), scheduledOnHealthy,
                healthyCluster,
                sender.acknowledgedOn(healthyCluster, cutAt, healedAt), healthyCluster,
                sender.acknowledgedOn(victimCluster, cutAt, healedAt), victimCluster);

        assertThat(dropped).as("packets the fault dropped: it must have cut real traffic").isPositive();
        assertThat(sentDuring).as("messages sent during the partition, stored on %s and due before it healed",
                healthyCluster).isPositive();
        assertThat(scheduledOnHealthy).as("records the server read from %s and stored during the partition",
                healthyCluster).isPositive();
        assertThat(missing.stream().map(s -> s.key + " (due " + (s.dueAt - cutAt) + " ms after the cut)").toList())
                .as("messages stored on %s that came due during the partition (%d) but did not arrive within %d ms "
                        + "of due, before it healed", healthyCluster, healthyDue.size(), ON_TIME_MS).isEmpty();

        // The server reads the healed IDC's internal topic again, and sends go back to both IDCs.
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
                .until(() -> counter(server, DelayServerMetrics.SCHEDULED, victimCluster) > scheduledOnVictimAtHeal);
        long victimReadMillis = System.currentTimeMillis() - healedAt;
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250)).until(() ->
                sender.acknowledgedOn(victimCluster, System.currentTimeMillis() - 2_000, Long.MAX_VALUE) >= 10);
        long victimBackMillis = System.currentTimeMillis() - healedAt;
        sender.close();
        await().atMost(Duration.ofSeconds(30)).until(() -> sender.sent.values().stream()
                .allMatch(s -> s.acknowledged() || s.failure != null));
        List<Sent> acknowledged = sender.sent.values().stream().filter(Sent::acknowledged).toList();
        List<Sent> failed = sender.sent.values().stream().filter(s -> s.failure != null).toList();
        // Bounded generously: before the SDK's consumers allocated with DistinctClientAllocation too, the broker's
        // dead connection (kept until it expires, 120 s without heartbeats) left half their queues to nobody.
        await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(500))
                .until(() -> acknowledged.stream().allMatch(s -> p.arrivals.countByKey.containsKey(s.key)));
        long allArrivedMillis = System.currentTimeMillis() - healedAt;
        // Late copies (an abandoned attempt stored on B, a record delivered twice) are counted: every stored copy is read.
        p.awaitEveryStoredCopy();

        Map<String, Arrivals.Arrival> arrived = firstArrivals(p.arrivals);
        List<Arrivals.Arrival> victimDue = acknowledged.stream()
                .filter(s -> victimCluster.equals(s.cluster) && s.dueAt >= cutAt && s.dueAt < healedAt)
                .map(s -> arrived.get(s.key)).toList();
        // The server's share for the healed cluster once it healed, per queue of its internal topic: a queue the
        // server stopped reading (left to a server that does not exist, say) shows here, not in the consumption.
        Map<Integer, List<Long>> healedShare = acknowledged.stream()
                .filter(s -> victimCluster.equals(s.cluster) && s.dueAt >= healedAt)
                .collect(Collectors.groupingBy(s -> s.queueId, TreeMap::new,
                        Collectors.mapping(s -> arrived.get(s.key).deliveredAt() - s.dueAt, Collectors.toList())));
        List<Arrivals.Arrival> late = arrived.values().stream().filter(a -> a.at() - a.dueAt() > 5_000).toList();
        long unknownKeys = p.arrivals.countByKey.keySet().stream().filter(k -> !sender.sent.containsKey(k)).count();
        System.out.printf("[IdcPartitionFaultIT] After the heal: the server stored records of %s again after %d ms, "
                        + "%s took sends again after %d ms. Stored on %s and due after the heal: the server's copy born "
                        + "minus due %s, max per internal queue %s. %d sent, %d acknowledged (%d on "
                        + "%s, %d on %s), %d failed; every acknowledged one arrived (0 lost) %d ms after the heal, "
                        + "%d duplicates over %d arrivals. Stored on %s and due during the partition: %d, arrival "
                        + "minus due %s. Arrivals over 5 s late: %d, the server's copy of %d of them born within "
                        + "2 s of due (late in consumption), by logic-topic cluster and queue %s. All arrivals, duplicates included: "
                        + "%s%n",
                victimCluster, victimReadMillis, victim.name(), victimBackMillis, victimCluster,
                stats(healedShare.values().stream().flatMap(List::stream).mapToLong(Long::longValue)),
                healedShare.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
                        e -> e.getValue().stream().mapToLong(Long::longValue).max().orElse(-1), (x, y) -> x,
                        TreeMap::new)),
                sender.sent.size(), acknowledged.size(),
                acknowledged.stream().filter(s -> healthyCluster.equals(s.cluster)).count(), healthyCluster,
                acknowledged.stream().filter(s -> victimCluster.equals(s.cluster)).count(), victimCluster,
                failed.size(), allArrivedMillis, p.arrivals.duplicates(), p.arrivals.all.size(), victimCluster,
                victimDue.size(), stats(victimDue.stream().mapToLong(a -> a.at() - a.dueAt())), late.size(),
                late.stream().filter(a -> a.deliveredAt() - a.dueAt() <= 2_000).count(),
                late.stream().collect(Collectors.groupingBy(a -> a.cluster() + "/" + a.queueId(),
                        TreeMap::new, Collectors.counting())), p.arrivals.lateness());
        if (!failed.isEmpty()) {
            System.out.printf("[IdcPartitionFaultIT] first failed send: %s%n", failed.get(0).failure.toString());
        }
        assertThat(acknowledged.stream().filter(s -> !p.arrivals.countByKey.containsKey(s.key)).map(s -> s.key))
                .as("acknowledged delayed messages that never arrived").isEmpty();
        List<String> assignments;
        synchronized (serviceEvents) {
            assignments = serviceEvents.list.stream().filter(e -> e.getMessage().startsWith(ASSIGNMENT))
                    .map(ILoggingEvent::getFormattedMessage).toList();
        }
        // A broker still holding the server's dead connection lists it twice; the server must not leave the
        // queues of the "second copy" to nobody (DistinctClientAllocation).
        assertThat(assignments).as("queue assignments of the only server of the group").isNotEmpty()
                .allMatch(IdcPartitionFaultIT::everyQueue);
        assertThat(unknownKeys).as("arrivals of keys never sent").isZero();
        assertThat(p.arrivals.early()).as("arrivals before their due time").isEmpty();
    }

    private static boolean everyQueue(String assignment) {
        Matcher m = READS.matcher(assignment);
        return m.find() && m.group(1).equals(m.group(2));
    }

    /** Each key's first arrival. */
    private static Map<String, Arrivals.Arrival> firstArrivals(Arrivals arrivals) {
        Map<String, Arrivals.Arrival> first = new HashMap<>();
        for (Arrivals.Arrival a : new ArrayList<>(arrivals.all)) {
            first.merge(a.key(), a, (x, y) -> x.at() <= y.at() ? x : y);
        }
        return first;
    }

    /** p50 / p90 / p99 / max of values in ms (negative ones count as 0), as one phrase. */
    private static String stats(LongStream values) {
        long[] sorted = values.map(v -> Math.max(0, v)).sorted().toArray();
        return String.format("p50=%d ms p90=%d ms p99=%d ms max=%d ms", percentile(sorted, 50), percentile(sorted, 90),
                percentile(sorted, 99), sorted.length == 0 ? -1 : sorted[sorted.length - 1]);
    }

    private static double counter(DelayServer server, String name, String cluster) {
        return server.registry().get(name).tag(DelayServerMetrics.TAG_CLUSTER, cluster).counter().count();
    }

    private static long percentile(long[] sorted, int percent) {
        if (sorted.length == 0) {
            return -1;
        }
        int index = (int) Math.ceil(percent / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static String threadDump() {
        return Arrays.stream(ManagementFactory.getThreadMXBean().dumpAllThreads(true, true))
                .map(IdcPartitionFaultIT::describe).collect(Collectors.joining("\n"));
    }

    /** A thread with its whole stack ({@link ThreadInfo#toString()} cuts it at eight frames). */
    private static String describe(ThreadInfo info) {
        StringBuilder out = new StringBuilder("\"").append(info.getThreadName()).append("\" ")
                .append(info.getThreadState());
        if (info.getLockName() != null) {
            out.append(" on ").append(info.getLockName());
        }
        if (info.getLockOwnerName() != null) {
            out.append(" owned by \"").append(info.getLockOwnerName()).append('"');
        }
        for (StackTraceElement frame : info.getStackTrace()) {
            out.append("\n\tat ").append(frame);
        }
        return out.toString();
    }
}
