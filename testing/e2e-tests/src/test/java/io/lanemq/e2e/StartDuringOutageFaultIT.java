package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ClientHealth;
import io.lanemq.api.ClientOptions;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Consumer;
import io.lanemq.api.Message;
import io.lanemq.api.MessageListener;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.Subscription;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.localstack.SendLog;
import io.lanemq.localstack.SendOutcome;
import io.lanemq.localstack.SyncSenders;
import io.lanemq.support.ParallelClose;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.net.NetworkFaults;
import io.lanemq.testkit.net.NetworkFaults.Direction;
import io.micrometer.core.instrument.Counter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Applications that start while IDC B is out: the fault is in force before the client, its producer and its DIRECT
 * subscription are created. Each must be ready within 2 s, send and consume on IDC A from the first second, show IDC
 * B DOWN, attach it within 5 s of the heal without a restart, and lose nothing acknowledged. One shared stack; each
 * case has its own logic topic and group, so their messages never mix. Runs in its own network namespace
 * (bin/netns/bin/java), where the fault rules live.
 */
@Isolated
class StartDuringOutageFaultIT {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final int SENDERS = 2;
    /** How long the fault lasts after the start: long enough for several attach attempts to fail, no longer. */
    private static final long FAULT_NANOS = 6 * SECOND;
    /**
     * How long the senders' window runs on after the first message consumed from B: the heal's work (the consumer's
     * attach, B's name server and broker back in the producer's rotation) is done by then, and a stall it caused has
     * emptied a second of acknowledged sends before it.
     */
    private static final long AFTER_B_CONSUMED_NANOS = 3 * SECOND;
    /** The send timeout of LocalPlatform's documents. */
    private static final long SEND_TIMEOUT_NANOS = 5 * SECOND;

    @RegisterExtension
    static final GlobalMeters METERS = new GlobalMeters();

    private static NetworkFaults faults;

    @BeforeAll
    static void openFaults() {
        faults = NetworkFaults.open();
        RocketMqStack.shared();
    }

    @AfterAll
    static void closeFaults() {
        faults.close();
    }

    @Test
    void startedWhileIdcBIsSilentItServesIdcAAtOnceAndAttachesBAfterTheHeal() throws Exception {
        run("IDC B silent", idc -> faults.drop("partition of " + idc.name(), idc.ports(), Direction.BOTH)::heal);
    }

    @Test
    void startedWhileIdcBIsKilledItServesIdcAAtOnceAndAttachesBWhenItIsBack() throws Exception {
        run("IDC B killed", idc -> {
            idc.kill();
            return idc::start;
        });
    }

    @Test
    void startedWhileOnlyIdcBsNameServerIsSilentItServesIdcAAtOnceAndAttachesBAfterTheHeal() throws Exception {
        run("IDC B's name server silent", idc -> faults.drop("name server of " + idc.name(),
                List.of(idc.nameServer().port()), Direction.BOTH)::heal);
    }

    /**
     * 20 clients of one application (one group) start at once while IDC B is silent: each ready and acknowledged by
     * IDC A within 5 s, each attached to B within 10 s of the heal, and their attach attempts on B bounded.
     */
    @Test
    void aRestartStormOfTwentyClientsWhileIdcBIsSilentIsReadyAtOnceAndAttachesAfterTheHeal() throws Exception {
        int clients = 20;
        String topic = LocalPlatform.unique("storm");
        String group = LocalPlatform.unique("storm");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic(topic, 8, 50, 50, group);
        String clusterB = platform.idcB().clusterName();
        double attemptsBefore = attachAttempts(group, clusterB);
        NetworkFaults.Fault fault = faults.drop("partition of " + platform.idcB().name(), platform.idcB().ports(), Direction.BOTH);
        List<Instance> instances = new ArrayList<>();
        ExecutorService starting = Executors.newFixedThreadPool(clients);
        ClientOptions options = ClientOptions.builder("storm").configLocation(platform.writeConfig().toString()).build();
        try {
            long begin = System.nanoTime();
            List<Future<Instance>> started = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                started.add(starting.submit(() -> Instance.start(options, topic, group)));
            }
            for (Future<Instance> future : started) {
                instances.add(future.get(30, TimeUnit.SECONDS));
            }
            long allReady = System.nanoTime() - begin;
            await().atMost(Duration.ofSeconds(10)).until(() -> instances.stream().allMatch(i -> i.firstAckNanos() > 0));
            long slowestFirstAck = instances.stream().mapToLong(Instance::firstAckNanos).max().orElseThrow() - begin;
            assertThat(instances).allSatisfy(i -> assertThat(i.client.health().cluster(clusterB).orElseThrow().state())
                    .isEqualTo(ClientHealth.ClusterState.DOWN));
            await().atMost(Duration.ofSeconds(10)).until(() -> System.nanoTime() - begin > FAULT_NANOS);

            fault.heal();
            long healedAt = System.nanoTime();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                    .until(() -> instances.stream().noneMatch(i -> detached(i.client, clusterB)));
            long allAttached = System.nanoTime() - healedAt;
            double attempts = attachAttempts(group, clusterB) - attemptsBefore;
            System.out.printf("restart storm, %d clients while IDC B silent: all ready in %d ms, slowest first "
                            + "acknowledged send %d ms after the start, all attached to B %d ms after the heal; %.0f attach "
                            + "attempts on B over %.1f s of fault (%.2f per client per second); %d packets dropped%n", clients,
                    allReady / 1_000_000, slowestFirstAck / 1_000_000, allAttached / 1_000_000, attempts,
                    (healedAt - begin) / 1e9, attempts / clients / ((healedAt - begin) / 1e9), fault.droppedPackets());

            assertThat(slowestFirstAck).as("every client ready and sending within 5 s").isLessThanOrEqualTo(5 * SECOND);
            assertThat(allAttached).as("every client attached to B within 10 s of the heal").isLessThanOrEqualTo(10 * SECOND);
            // A silent attempt takes 3-7 s; retries come 250 ms to 2 s after: a few per client over the fault, not dozens.
            assertThat(attempts / clients).as("attach attempts on B per client over a %d s fault", FAULT_NANOS / SECOND)
                    .isLessThanOrEqualTo(8);
        } finally {
            fault.heal();
            starting.shutdownNow();
            // All at once: each client spends seconds closing its RocketMQ clients, twenty of them one after
            // another took over half a minute, and they share nothing a parallel close could disturb.
            ParallelClose.all("storm-close", instances.stream().<Runnable>map(instance -> () -> {
                try {
                    instance.close();
                } catch (Exception e) {
                    throw new IllegalStateException("closing a storm client", e);
                }
            }).toList());
        }
    }

    /**
     * Both IDCs silent at start: the client, its producer and its subscription still start within 2 s with every
     * cluster DOWN; a send fails within its timeout naming each cluster and why; once IDC A is healed the consumer
     * attaches to it within 5 s and what is sent there is consumed.
     */
    @Test
    void startedWhileEveryIdcIsSilentItStartsSendsFailNamingEachClusterAndTheFirstIdcBackIsServed() throws Exception {
        String topic = LocalPlatform.unique("nowhere");
        String group = LocalPlatform.unique("nowhere");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic(topic, 8, 50, 50, group);
        String clusterA = platform.idcA().clusterName();
        String clusterB = platform.idcB().clusterName();
        NetworkFaults.Fault faultA = faults.drop("partition of " + platform.idcA().name(), platform.idcA().ports(), Direction.BOTH);
        NetworkFaults.Fault faultB = faults.drop("partition of " + platform.idcB().name(), platform.idcB().ports(), Direction.BOTH);
        TimedListener consumed = new TimedListener();
        try {
            long begin = System.nanoTime();
            try (MessagingClient client = platform.client("nowhere-it");
                 Producer producer = client.createProducer(ProducerOptions.defaults());
                 Consumer consumer = client.subscribe(Subscription.builder(topic, group).build(), consumed)) {
                long ready = System.nanoTime() - begin;
                assertThat(client.health().clusters()).as("every cluster while both IDCs are silent")
                        .allSatisfy(c -> assertThat(c.state()).isEqualTo(ClientHealth.ClusterState.DOWN));
                long sendAt = System.nanoTime();
                Throwable failure = catchThrowable(() -> producer.send(
                        Message.builder(topic).body(new byte[] {1}).build()));
                long failedIn = System.nanoTime() - sendAt;
                assertThat(failure).isInstanceOf(MessagingException.class)
                        .hasMessageContaining(clusterA + ": ").hasMessageContaining(clusterB + ": ");

                faultA.heal();
                long healedAt = System.nanoTime();
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> !detached(client, clusterA));
                long attached = System.nanoTime() - healedAt;
                SyncSenders senders = new SyncSenders(producer, topic, 1);
                await().atMost(Duration.ofSeconds(10)).until(() -> consumed.firstFrom(clusterA, healedAt) > 0);
                long firstFromA = consumed.firstFrom(clusterA, healedAt) - healedAt;
                senders.close();
                Set<String> acknowledged = senders.log().acknowledgedIds();
                await().atMost(Duration.ofSeconds(30)).until(() -> consumed.ids().containsAll(acknowledged));
                System.out.printf("every IDC silent at start: ready in %d ms; a send failed in %d ms: %s; IDC A healed: "
                                + "attached %d ms and first consumed %d ms after the heal; %d acknowledged, 0 lost, %d duplicated%n",
                        ready / 1_000_000, failedIn / 1_000_000, failure.getMessage(), attached / 1_000_000,
                        firstFromA / 1_000_000, acknowledged.size(), consumed.duplicated());

                assertThat(ready).as("client, producer and subscription ready (ns)").isLessThanOrEqualTo(2 * SECOND);
                assertThat(failedIn).as("the send failed within its timeout (ns)")
                        .isLessThanOrEqualTo(SEND_TIMEOUT_NANOS + SECOND / 2);
                assertThat(attached).as("attached to A after its heal (ns)").isLessThanOrEqualTo(5 * SECOND);
            }
        } finally {
            faultA.heal();
            faultB.heal();
        }
    }

    /** A fault on IDC B, in force from {@code apply}; the returned action heals it. */
    @FunctionalInterface
    private interface Injection {
        Heal apply(Idc idc) throws Exception;
    }

    @FunctionalInterface
    private interface Heal {
        void heal() throws Exception;
    }

    private void run(String label, Injection injection) throws Exception {
        String topic = LocalPlatform.unique("startup");
        String group = LocalPlatform.unique("startup");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic(topic, 8, 50, 50, group);
        Idc victim = platform.idcB();
        String clusterA = platform.idcA().clusterName();
        String clusterB = victim.clusterName();
        Heal heal = injection.apply(victim);
        boolean healed = false;
        TimedListener consumed = new TimedListener();
        long begin = System.nanoTime();
        try (MessagingClient client = platform.client("startup-it");
             Producer producer = client.createProducer(ProducerOptions.defaults());
             Consumer consumer = client.subscribe(Subscription.builder(topic, group).build(), consumed)) {
            long ready = System.nanoTime() - begin;
            SyncSenders senders = new SyncSenders(producer, topic, SENDERS);
            SendLog log = senders.log();
            long sendStart = System.nanoTime() - log.nowNanos();
            ClientHealth.Cluster b = client.health().cluster(clusterB).orElseThrow();
            assertThat(b.state()).as("IDC B while it is out: %s", b).isEqualTo(ClientHealth.ClusterState.DOWN);
            assertThat(b.reason()).hasValueSatisfying(reason -> assertThat(reason).contains("group '" + group + "'"));

            await().atMost(Duration.ofSeconds(20)).until(() -> System.nanoTime() - begin > FAULT_NANOS);
            heal.heal();
            healed = true;
            long healedAt = System.nanoTime();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> !detached(client, clusterB));
            long attached = System.nanoTime() - healedAt;
            await().atMost(Duration.ofSeconds(10)).until(() -> consumed.firstFrom(clusterB, healedAt) > 0);
            long firstFromB = consumed.firstFrom(clusterB, healedAt) - healedAt;
            await().atMost(Duration.ofSeconds(20)).until(() -> System.nanoTime() - healedAt > firstFromB + AFTER_B_CONSUMED_NANOS);
            // The window ends here: closing the senders waits for the sends in flight, and starts none.
            long end = System.nanoTime();
            senders.close();

            Set<String> acknowledged = log.acknowledgedIds();
            await().atMost(Duration.ofSeconds(60)).until(() -> consumed.ids().containsAll(acknowledged));
            long duplicated = consumed.duplicated();
            long[] acksPerSecond = acksPerSecond(log, (end - sendStart) / SECOND);
            long[] consumesPerSecond = consumed.perSecond(sendStart, (end - sendStart) / SECOND);
            long firstFromA = consumed.firstFrom(clusterA, begin) - begin;
            System.out.printf("%s at start: ready in %d ms; first consumed from IDC A %d ms after the start; healed at "
                            + "%.1f s; attached to B %d ms after the heal, first consumed from B %d ms after it; from the senders' "
                            + "start to 3 s after that, acknowledged sends per second %s, consumed per second %s; %d acknowledged, 0 lost, %d "
                            + "duplicated, %d failed sends%n", label, ready / 1_000_000, firstFromA / 1_000_000,
                    (healedAt - begin) / 1e9, attached / 1_000_000, firstFromB / 1_000_000, Arrays.toString(acksPerSecond),
                    Arrays.toString(consumesPerSecond), acknowledged.size(), duplicated,
                    log.all().stream().filter(o -> o.state() == SendOutcome.State.FAILED).count());

            assertThat(ready).as("client, producer and subscription ready (ns)").isLessThanOrEqualTo(2 * SECOND);
            assertThat(firstFromA).as("first message consumed from IDC A after the start (ns)").isLessThanOrEqualTo(2 * SECOND + ready);
            // Whole seconds from the senders' start to the end: a healthy start has none without an acknowledged send.
            assertThat(Arrays.stream(acksPerSecond).min().orElse(0))
                    .as("acknowledged sends per second from the start: %s", Arrays.toString(acksPerSecond)).isPositive();
            assertThat(attached).as("attached to B after the heal (ns)").isLessThanOrEqualTo(5 * SECOND);
        } finally {
            if (!healed) {
                heal.heal();
            }
        }
    }

    /** Acknowledged sends per whole second since the senders' start, by when they were acknowledged. */
    private static long[] acksPerSecond(SendLog log, long seconds) {
        long[] counts = new long[(int) seconds];
        for (SendOutcome outcome : log.all()) {
            long at = outcome.endNanos() / SECOND;
            if (outcome.acknowledged() && at >= 0 && at < seconds) {
                counts[(int) at]++;
            }
        }
        return counts;
    }

    /** Whether a consumer of the client is still not attached to {@code cluster}, as its health says. */
    private static boolean detached(MessagingClient client, String cluster) {
        return client.health().cluster(cluster).orElseThrow().reason().map(reason -> reason.contains("not attached")).orElse(false);
    }

    private static double attachAttempts(String group, String cluster) {
        return METERS.find(SdkMetrics.CONSUMER_ATTACH_ATTEMPTS).tag(SdkMetrics.TAG_GROUP, group).tag(SdkMetrics.TAG_CLUSTER, cluster)
                .counters().stream().mapToDouble(Counter::count).sum();
    }

    /** Every delivery with its time and cluster. */
    private static final class TimedListener implements MessageListener {
        private final ConcurrentLinkedQueue<Delivery> deliveries = new ConcurrentLinkedQueue<>();

        @Override
        public ConsumeResult consume(ReceivedMessage message) {
            deliveries.add(new Delivery(System.nanoTime(), message.cluster(), message.messageId()));
            return ConsumeResult.SUCCESS;
        }

        Set<String> ids() {
            return deliveries.stream().map(Delivery::id).collect(Collectors.toSet());
        }

        long duplicated() {
            Map<String, Long> counts = deliveries.stream().collect(Collectors.groupingBy(Delivery::id, Collectors.counting()));
            return counts.values().stream().filter(n -> n > 1).count();
        }

        /** The time of the first delivery from {@code cluster} at or after {@code since}; 0 when none. */
        long firstFrom(String cluster, long since) {
            return deliveries.stream().filter(d -> d.cluster.equals(cluster) && d.at - since >= 0).mapToLong(Delivery::at).min().orElse(0);
        }

        long[] perSecond(long begin, long seconds) {
            long[] counts = new long[(int) seconds];
            for (Delivery delivery : deliveries) {
                long at = (delivery.at - begin) / SECOND;
                if (at >= 0 && at < seconds) {
                    counts[(int) at]++;
                }
            }
            return counts;
        }

        private record Delivery(long at, String cluster, String id) {
        }
    }

    /** One client of the storm: its producer, one sync sender, its subscription. */
    private record Instance(MessagingClient client, Producer producer, Consumer consumer, SyncSenders senders) implements AutoCloseable {
        static Instance start(ClientOptions options, String topic, String group) throws Exception {
            MessagingClient client = MessagingClient.create(options);
            Producer producer = client.createProducer(ProducerOptions.defaults());
            Consumer consumer = client.subscribe(Subscription.builder(topic, group).build(), message -> ConsumeResult.SUCCESS);
            return new Instance(client, producer, consumer, new SyncSenders(producer, topic, 1));
        }

        /** When its first send was acknowledged (System.nanoTime), 0 before. */
        long firstAckNanos() {
            SendLog log = senders.log();
            long sinceLog = System.nanoTime() - log.nowNanos();
            return log.all().stream().filter(SendOutcome::acknowledged).mapToLong(SendOutcome::endNanos).min().stream()
                    .map(end -> end + sinceLog).findFirst().orElse(0);
        }

        @Override
        public void close() throws Exception {
            senders.close();
            consumer.close();
            producer.close();
            client.close();
        }
    }
}
