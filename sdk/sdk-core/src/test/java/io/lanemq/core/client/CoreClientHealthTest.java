package io.lanemq.core.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ClientHealth;
import io.lanemq.api.ClientHealth.ClusterState;
import io.lanemq.api.ClientOptions;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.SendResult;
import io.lanemq.support.FakeClock;
import io.lanemq.support.Ticker;
import io.lanemq.testkit.memory.MemoryBinding;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CoreMessagingClient#health()} on the in-memory binding with a watched configuration file: what a healthy
 * client shows, a rejected reload (the file made invalid) and a cluster its sends find unreachable.
 */
class CoreClientHealthTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    static final String PLATFORM = """
            clusters:
              cluster-a: { idc: idc-a, nameServer: "127.0.0.1:1" }
              cluster-b: { idc: idc-b, nameServer: "127.0.0.1:2" }
            producer: { sendTimeoutMs: 1000, failoverAfterMs: 200 }
            topics:
              orders:
                routes:
                  - { cluster: cluster-a, physicalTopic: orders_a, weight: 50 }
                  - { cluster: cluster-b, physicalTopic: orders_b, weight: 50 }
            """;

    @TempDir
    Path dir;

    private final MemoryBinding binding = new MemoryBinding();
    /** The wall clock only: times in the health are read from it. Sends and probes run on the system ticker. */
    private final FakeClock wallClock = new FakeClock();
    private Path config;
    private CoreMessagingClient client;
    private Producer producer;

    @BeforeEach
    void start() throws Exception {
        // Name servers nobody listens on: the failover's probe of a downed cluster fails, so it stays down.
        config = Files.writeString(dir.resolve("platform.yaml"), PLATFORM, StandardCharsets.UTF_8);
        client = CoreMessagingClient.start(ClientOptions.builder("health-test").configLocation("file:" + config).build(),
                new SimpleMeterRegistry(), ObservationRegistry.NOOP, Ticker.system(), wallClock, Optional.of(binding));
        producer = client.createProducer(ProducerOptions.defaults());
    }

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
        binding.close();
    }

    private ClusterState state(String cluster) {
        return client.health().cluster(cluster).orElseThrow().state();
    }

    private SendResult send() throws MessagingException {
        return producer.send(Message.builder("orders").body("o".getBytes(StandardCharsets.UTF_8)).build());
    }

    /**
     * Sends until {@code done}, failing after {@link #WAIT}: a cluster the failover shrinks is picked ever more rarely,
     * so taking it out of rotation needs tens to hundreds of sends, as many as it takes.
     */
    private void sendUntil(BooleanSupplier done) throws MessagingException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!done.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("still not done after " + WAIT + ": " + client.health()).isNegative();
            send();
        }
    }

    @Test
    void aClientWhoseSendsReachEveryClusterOnAGoodConfigurationIsHealthy() throws Exception {
        ClientHealth before = client.health();
        assertThat(before.configuration().location()).isEqualTo("file:" + config.toAbsolutePath());
        assertThat(before.configuration().lastApplied()).isEqualTo(FakeClock.START);
        assertThat(before.configuration().healthy()).isTrue();
        assertThat(before.clusters()).as("nothing sent yet: nothing judged")
                .extracting(ClientHealth.Cluster::state).containsExactly(ClusterState.UNKNOWN, ClusterState.UNKNOWN);

        sendUntil(() -> state("cluster-a") == ClusterState.UP && state("cluster-b") == ClusterState.UP);

        assertThat(client.health().clusters()).containsExactly(
                new ClientHealth.Cluster("cluster-a", "idc-a", ClusterState.UP, Optional.empty()),
                new ClientHealth.Cluster("cluster-b", "idc-b", ClusterState.UP, Optional.empty()));
    }

    @Test
    void aRejectedReloadShowsWithItsReasonWhileThePreviousConfigurationStaysInForce() throws Exception {
        wallClock.advance(Duration.ofMinutes(5));
        Files.writeString(config, PLATFORM.replace("{ cluster: cluster-b,", "{ cluster: cluster-z,"), StandardCharsets.UTF_8);

        await().atMost(WAIT).until(() -> client.health().configuration().lastRejection().isPresent());

        ClientHealth.Configuration rejected = client.health().configuration();
        assertThat(rejected.healthy()).isFalse();
        assertThat(rejected.lastRejection().orElseThrow().reason()).as("the parser's key and line")
                .contains("topics.orders.routes[1].cluster (line 9)").contains("cluster-z");
        assertThat(rejected.lastRejection().orElseThrow().at()).isEqualTo(FakeClock.START.plus(Duration.ofMinutes(5)));
        assertThat(rejected.lastApplied()).as("the configuration read at start is still the one in force").isEqualTo(FakeClock.START);
        assertThat(client.config().current().topic("orders").orElseThrow().route("cluster-b")).isPresent();
        sendUntil(() -> state("cluster-b") == ClusterState.UP);
        assertThat(binding.cluster("cluster-b").stored("orders_b")).as("sends still follow the previous routes").isNotEmpty();

        wallClock.advance(Duration.ofMinutes(5));
        Files.writeString(config, PLATFORM.replace("weight: 50", "weight: 60"), StandardCharsets.UTF_8);
        await().atMost(WAIT).until(() -> client.health().configuration().healthy());
        assertThat(client.health().configuration().lastApplied()).isEqualTo(FakeClock.START.plus(Duration.ofMinutes(10)));
    }

    @Test
    void aClusterThatStopsAnsweringIsDownWithTheReasonWhileTheOtherStaysUp() throws Exception {
        binding.cluster("cluster-b").silence();

        sendUntil(() -> state("cluster-b") == ClusterState.DOWN && state("cluster-a") == ClusterState.UP);

        ClientHealth.Cluster down = client.health().cluster("cluster-b").orElseThrow();
        assertThat(down.idc()).isEqualTo("idc-b");
        assertThat(down.reason()).hasValueSatisfying(reason -> assertThat(reason).contains("logic topic orders"));
        assertThat(client.health().configuration().healthy()).isTrue();
        assertThat(send().cluster()).as("sends go to the cluster still up").isEqualTo("cluster-a");
    }

    @Test
    void whenEveryClusterFailsEveryClusterIsDown() throws Exception {
        binding.cluster("cluster-a").failSends();
        binding.cluster("cluster-b").failSends();

        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!client.health().clusters().stream().allMatch(cluster -> cluster.state() == ClusterState.DOWN)) {
            assertThat(System.nanoTime() - deadline).as("still not down after " + WAIT + ": " + client.health()).isNegative();
            try {
                send();
            } catch (MessagingException expected) {
                // Every send fails: its failures are what takes the clusters out of rotation.
            }
        }
    }
}
