package io.lanemq.core.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ClientHealth.ClusterState;
import io.lanemq.api.ClientOptions;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.LaneOptions;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.SendResult;
import io.lanemq.api.Subscription;
import io.lanemq.api.TransactionResolution;
import io.lanemq.config.DelayConfig;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.Ticker;
import io.lanemq.support.attach.AttachPolicy;
import io.lanemq.testkit.memory.MemoryBinding;
import io.lanemq.testkit.memory.MemoryCluster;
import io.lanemq.testkit.tls.SelfSignedCertificate;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client paths beside plain sends and DIRECT subscriptions, each started while cluster B is down (issue 28):
 * a producer B refuses (ACL), a transactional producer with its check-back, delayed sends, lane members with their
 * forwarding servers. Each starts within 2 s on A alone, serves there at once, and health says why B is DOWN.
 * B's name server is a listening socket: the failover's probe finds it answering, as a real one would during a
 * broker-side fault, so B gets trial sends and comes back into rotation once it works again.
 */
class StartWithOneClusterDownTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration READY_WITHIN = Duration.ofSeconds(2);
    private static final SelfSignedCertificate CERTIFICATE = SelfSignedCertificate.shared();

    @TempDir
    Path dir;

    private final MemoryBinding binding = new MemoryBinding();
    private final List<AutoCloseable> closing = new ArrayList<>();
    private ServerSocket nameServerA;
    private ServerSocket nameServerB;
    private Path config;

    @BeforeEach
    void platform() throws Exception {
        nameServerA = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        nameServerB = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        config = Files.writeString(dir.resolve("platform.yaml"), """
                clusters:
                  cluster-a: { idc: idc-a, nameServer: "127.0.0.1:%d" }
                  cluster-b: { idc: idc-b, nameServer: "127.0.0.1:%d" }
                producer: { sendTimeoutMs: 1000, failoverAfterMs: 200 }
                topics:
                  orders:
                    routes:
                      - { cluster: cluster-a, physicalTopic: orders_a, weight: 50 }
                      - { cluster: cluster-b, physicalTopic: orders_b, weight: 50 }
                    consumerGroups:
                      billing: { startFrom: EARLIEST }
                """.formatted(nameServerA.getLocalPort(), nameServerB.getLocalPort()), StandardCharsets.UTF_8);
    }

    @AfterEach
    void close() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
        binding.close();
        nameServerA.close();
        nameServerB.close();
    }

    @Test
    void aProducerThatClusterBRefusesStartsSendsEverythingToAAndHealthSaysWhy() throws Exception {
        cluster("cluster-b").refuseStarts("NO_PERMISSION: the access key may not send to this cluster");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        CoreMessagingClient client = client("acl-test", Optional.empty(), registry);

        Producer producer = ready(() -> client.createProducer(ProducerOptions.builder().producerGroup("acl").build()), "producer");
        for (int i = 0; i < 20; i++) {
            assertThat(send(producer, Message.builder("orders")).cluster()).as("B is out of rotation").isEqualTo("cluster-a");
        }

        assertThat(cluster("cluster-b").startAttempts()).as("B refused once; its retry is 5-10 s away").isEqualTo(1);
        assertThat(client.health().cluster("cluster-b").orElseThrow()).satisfies(b -> {
            assertThat(b.state()).isEqualTo(ClusterState.DOWN);
            assertThat(b.reason()).hasValueSatisfying(why -> assertThat(why).contains("producer group 'acl'", "(refused)",
                    "NO_PERMISSION"));
        });
        assertThat(registry.get(SdkMetrics.PRODUCER_START_ATTEMPTS).tag(SdkMetrics.TAG_CLUSTER, "cluster-b")
                .tag(SdkMetrics.TAG_OUTCOME, "refused").counter().count()).isEqualTo(1);
    }

    @Test
    void aSubscriptionDoesNotWaitForAClusterWhoseNameServersRefusedTheProducersCheck() throws Exception {
        // B's consumer start would hang for twice the start wait (a silent network; the close waits it out); its name
        // servers refused the producer's check.
        cluster("cluster-b").stallStarts(AttachPolicy.DEFAULT.startWait().multipliedBy(2))
                .unreachable("connection refused: 127.0.0.1:1");
        CoreMessagingClient client = client("known-down-test", Optional.empty(), new SimpleMeterRegistry());
        Producer producer = client.createProducer(ProducerOptions.builder().producerGroup("known-down").build());

        long at = System.nanoTime();
        List<String> received = new CopyOnWriteArrayList<>();
        closing.add(client.subscribe(Subscription.builder("orders", "billing").build(), message -> {
            received.add(message.messageId());
            return ConsumeResult.SUCCESS;
        }));
        Duration took = Duration.ofNanos(System.nanoTime() - at);

        System.out.printf("subscription with cluster-b known unreachable started in %d ms%n", took.toMillis());
        assertThat(took).as("the subscription's start, which would wait 1 s for B's first attempt otherwise")
                .isLessThan(AttachPolicy.DEFAULT.startWait().multipliedBy(3).dividedBy(4));
        send(producer, Message.builder("orders"));
        await().atMost(WAIT).until(() -> received.size() == 1);
        assertThat(client.health().cluster("cluster-b").orElseThrow().reason()).hasValueSatisfying(why ->
                assertThat(why).contains("consumer group 'billing'", "name servers accepted no connection", "connection refused"));
    }

    @Test
    void aTransactionalProducerStartsOnAWhileBIsDownItsCheckBackAnswersOnAAndBIsUsedOnceBack() throws Exception {
        down("cluster-b");
        CoreMessagingClient client = client("tx-test", Optional.empty(), new SimpleMeterRegistry());

        Producer producer = ready(() -> client.createProducer(ProducerOptions.builder().producerGroup("tx")
                .transactionChecker(message -> TransactionResolution.COMMIT).build()), "transactional producer");
        for (int i = 0; i < 5; i++) {
            SendResult sent = producer.sendInTransaction(Message.builder("orders").body(new byte[] {1}).build(),
                    prepared -> TransactionResolution.COMMIT);
            assertThat(sent.cluster()).isEqualTo("cluster-a");
        }
        // A local transaction whose outcome is unknown is settled by the check-back, which A's producer answers.
        producer.sendInTransaction(Message.builder("orders").body(new byte[] {2}).build(), prepared -> TransactionResolution.UNKNOWN);
        assertThat(cluster("cluster-a").checkBack()).as("the checker answers on A").containsValue(TransactionResolution.COMMIT);
        assertThat(cluster("cluster-a").stored("orders_a")).hasSize(6);
        assertThat(client.health().cluster("cluster-b").orElseThrow().state()).isEqualTo(ClusterState.DOWN);

        cluster("cluster-b").recover();
        long healedAt = System.nanoTime();
        await().atMost(Duration.ofSeconds(5)).until(() -> producer.sendInTransaction(Message.builder("orders")
                .body(new byte[] {3}).build(), prepared -> TransactionResolution.COMMIT).cluster().equals("cluster-b"));
        System.out.printf("transactional producer: first transaction on B %d ms after it came back%n",
                (System.nanoTime() - healedAt) / 1_000_000);
    }

    @Test
    void delayedSendsStartOnAWhileBIsDownAndReachBOnceBack() throws Exception {
        down("cluster-b");
        CoreMessagingClient client = client("delay-test", Optional.empty(), new SimpleMeterRegistry());

        Producer producer = ready(() -> client.createProducer(ProducerOptions.defaults()), "producer");
        for (int i = 0; i < 5; i++) {
            SendResult sent = send(producer, Message.builder("orders").deliverAfter(Duration.ofMinutes(1)));
            assertThat(sent.delayId()).as("the ticket names the cluster that holds it")
                    .hasValueSatisfying(ticket -> assertThat(ticket).endsWith("@cluster-a"));
        }
        assertThat(cluster("cluster-a").stored(DelayConfig.DEFAULTS.internalTopic())).as("on A's delay topic").hasSize(5);

        cluster("cluster-b").recover();
        long healedAt = System.nanoTime();
        await().atMost(Duration.ofSeconds(5)).until(() -> send(producer, Message.builder("orders")
                .deliverAfter(Duration.ofMinutes(1))).cluster().equals("cluster-b"));
        System.out.printf("delayed sends: first on B %d ms after it came back%n", (System.nanoTime() - healedAt) / 1_000_000);
    }

    @Test
    void laneMembersAndTheirForwardingServersStartWhileBIsDownAndForwardALanesMessagesOnA() throws Exception {
        down("cluster-b");
        Member base = member("lane-base", Optional.empty());
        Member laneA = member("lane-a", Optional.of("A"));
        await().atMost(WAIT).until(() -> base.client.lanesWithMembers(Subscription.builder("orders", "billing").build())
                .map(lanes -> lanes.contains(Optional.of(io.lanemq.api.Lane.of("A")))).orElse(false));

        // Lane A's member sends: its messages carry lane A, and whichever member A's broker hands one to, lane A consumes it.
        Producer producer = laneA.client.createProducer(ProducerOptions.defaults());
        for (int i = 0; i < 8; i++) {
            assertThat(send(producer, Message.builder("orders")).cluster()).isEqualTo("cluster-a");
        }
        await().atMost(WAIT).until(() -> laneA.received.size() == 8);
        assertThat(base.received).as("no lane A message processed by the base").isEmpty();
        assertThat(laneA.received).allSatisfy(message -> assertThat(message.cluster()).isEqualTo("cluster-a"));
        assertThat(base.client.health().cluster("cluster-b").orElseThrow().state()).isEqualTo(ClusterState.DOWN);

        cluster("cluster-b").recover();
        long healedAt = System.nanoTime();
        await().atMost(Duration.ofSeconds(5)).until(() -> cluster("cluster-b").openConsumers().size() == 2);
        System.out.printf("lane members: both attached to B %d ms after it came back%n", (System.nanoTime() - healedAt) / 1_000_000);
    }

    /** B's producers and consumers cannot start and its sends go unanswered: a cluster whose brokers are down or silent. */
    private void down(String cluster) {
        cluster(cluster).failStarts().silence();
    }

    private Member member(String application, Optional<String> lane) throws Exception {
        LaneOptions.Builder lanes = LaneOptions.builder().listen("127.0.0.1", 0)
                .tls(CERTIFICATE.certificatePem(), CERTIFICATE.privateKeyPem(), CERTIFICATE.certificatePem())
                .token("start-with-one-cluster-down-token-0123").membershipRefresh(Duration.ofMillis(100));
        lane.ifPresent(lanes::lane);
        CoreMessagingClient client = client(application, Optional.of(lanes.build()), new SimpleMeterRegistry());
        Member member = new Member(client);
        ready(() -> client.subscribe(Subscription.builder("orders", "billing").build(), member::consume), "lane subscription");
        return member;
    }

    private CoreMessagingClient client(String application, Optional<LaneOptions> lanes, SimpleMeterRegistry registry)
            throws MessagingException {
        ClientOptions.Builder options = ClientOptions.builder(application).configLocation("file:" + config).noConfigSnapshots();
        lanes.ifPresent(options::lanes);
        CoreMessagingClient client = CoreMessagingClient.start(options.build(), registry, ObservationRegistry.NOOP,
                Ticker.system(), Clock.systemUTC(), Optional.of(binding));
        closing.add(client);
        return client;
    }

    /** Runs a start and checks it returned within {@link #READY_WITHIN}. */
    private static <T> T ready(Start<T> start, String what) throws MessagingException {
        long at = System.nanoTime();
        T started = start.run();
        Duration took = Duration.ofNanos(System.nanoTime() - at);
        System.out.printf("%s started with cluster-b down in %d ms%n", what, took.toMillis());
        assertThat(took).as("%s's start", what).isLessThan(READY_WITHIN);
        return started;
    }

    private static SendResult send(Producer producer, Message.Builder message) throws MessagingException {
        return producer.send(message.body("o".getBytes(StandardCharsets.UTF_8)).build());
    }

    private MemoryCluster cluster(String name) {
        return binding.cluster(name);
    }

    @FunctionalInterface
    private interface Start<T> {
        T run() throws MessagingException;
    }

    /** One application instance taking part in lanes, and what its listener consumed. */
    private static final class Member {
        final CoreMessagingClient client;
        final List<ReceivedMessage> received = new CopyOnWriteArrayList<>();

        Member(CoreMessagingClient client) {
            this.client = client;
        }

        ConsumeResult consume(ReceivedMessage message) {
            received.add(message);
            return ConsumeResult.SUCCESS;
        }
    }
}
