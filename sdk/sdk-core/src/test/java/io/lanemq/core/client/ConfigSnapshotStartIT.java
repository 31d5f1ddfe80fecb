package io.lanemq.core.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lanemq.config.ConfigSnapshotStore;
import io.lanemq.api.ClientHealth;
import io.lanemq.api.ClientOptions;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.Message;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.config.ConfigDocument;
import io.lanemq.config.EtcdConfigSource;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.Ticker;
import io.lanemq.testkit.etcd.EtcdServer;
import io.lanemq.testkit.memory.MemoryBinding;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A client whose etcd is unreachable at start, against a real etcd: it starts on the local snapshot the last client
 * wrote, says it is stale, and takes the current document through its normal reload as soon as etcd answers. The
 * brokers are the in-memory binding's: what is tested is the configuration's path, not the brokers'.
 */
@Isolated // judges a start to half a second: runs alone
class ConfigSnapshotStartIT {
    /** The watch's reconnect backoff is capped at 2 s; etcd's own start is not counted (it returns when healthy). */
    private static final Duration CATCH_UP = Duration.ofSeconds(5);
    private static final Duration OUTAGE = Duration.ofSeconds(4);
    /** The document as an operator publishes it: comments and an environment the client resolves for itself. */
    private static final String PLATFORM = """
            # orders, both IDCs
            clusters:
              cluster-a: { idc: idc-a, nameServer: "127.0.0.1:1" }
              cluster-b: { idc: idc-b, nameServer: "127.0.0.1:2" }
            topics:
              orders:
                routes:
                  - { cluster: cluster-a, physicalTopic: orders_a, weight: 70 }
                  - { cluster: cluster-b, physicalTopic: orders_b, weight: 30 }
            environments:
              staging:
                physicalTopicSuffix: _staging
            """;

    @TempDir
    Path snapshots;

    private final EtcdServer etcd = EtcdServer.started();
    private final MemoryBinding binding = new MemoryBinding();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private String key;

    @BeforeEach
    void key(TestInfo test) {
        key = "/lanemq/platform/" + test.getTestMethod().orElseThrow().getName();
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : closeables) {
            closeable.close();
        }
        binding.close();
        etcd.close();
    }

    private ClientOptions options() {
        return ClientOptions.builder("snapshot-test").configLocation("etcd://" + etcd.endpoint() + key)
                .environment("staging").configSnapshotDirectory(snapshots).build();
    }

    private CoreMessagingClient start(MeterRegistry registry) throws Exception {
        CoreMessagingClient client = CoreMessagingClient.start(options(), registry, ObservationRegistry.NOOP, Ticker.system(),
                InstantSource.system(), Optional.of(binding));
        closeables.add(client);
        return client;
    }

    private Path snapshotFile() {
        return new ConfigSnapshotStore(snapshots).fileFor("etcd://" + etcd.endpoint() + key, key);
    }

    private ConfigDocument snapshot() throws Exception {
        return new ConfigSnapshotStore(snapshots).read("etcd://" + etcd.endpoint() + key, key).orElseThrow();
    }

    private List<String> sentTopics() {
        List<String> topics = new ArrayList<>();
        for (String cluster : List.of("cluster-a", "cluster-b")) {
            binding.cluster(cluster).sends().forEach(sent -> topics.add(sent.message().topic()));
        }
        return topics;
    }

    private static double gauge(MeterRegistry registry, String name) {
        return registry.get(name).gauge().value();
    }

    @Test
    void aClientStartsOnTheSnapshotWhileEtcdIsDownAndCatchesUpWhenItReturns() throws Exception {
        long r1 = etcd.put(key, PLATFORM);
        CoreMessagingClient first = start(new SimpleMeterRegistry());
        assertThat(first.health().configuration().stale()).as("read from etcd").isEmpty();
        ConfigDocument written = snapshot();
        assertThat(written.revision()).isEqualTo(r1);
        assertThat(written.text()).as("the exact text received, environments and comments included").isEqualTo(PLATFORM);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(snapshotFile()))).isEqualTo("rw-------");

        etcd.stop();
        MeterRegistry registry = new SimpleMeterRegistry();
        long startNanos = System.nanoTime();
        CoreMessagingClient second = start(registry);
        Producer producer = second.createProducer(ProducerOptions.defaults());
        producer.send(Message.builder("orders").body("o".getBytes(StandardCharsets.UTF_8)).build());
        long readyMillis = (System.nanoTime() - startNanos) / 1_000_000;

        ClientHealth.Configuration stale = second.health().configuration();
        assertThat(stale.stale()).as("stale since the snapshot was written, at its revision")
                .contains(new ClientHealth.Stale(written.snapshotAt().orElseThrow(), r1));
        assertThat(stale.connected()).isFalse();
        assertThat(stale.healthy()).isFalse();
        assertThat(gauge(registry, SdkMetrics.CONFIG_STALE)).isEqualTo(1);
        assertThat(gauge(registry, SdkMetrics.CONFIG_REVISION)).isEqualTo(r1);
        assertThat(sentTopics()).as("it serves on the snapshot, resolved for its own environment from the stored document")
                .singleElement().isIn("orders_a_staging", "orders_b_staging");

        // An outage long enough for the watch's reconnect backoff to reach its 2 s cap, sending throughout.
        long outageEnd = System.nanoTime() + OUTAGE.toNanos();
        int sentDuringOutage = 0;
        while (System.nanoTime() < outageEnd) {
            producer.send(Message.builder("orders").body("o".getBytes(StandardCharsets.UTF_8)).build());
            sentDuringOutage++;
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos()); // paced: the in-memory brokers keep every send
        }
        assertThat(sentTopics()).as("every send during the outage succeeded").hasSize(1 + sentDuringOutage);
        assertThat(second.health().configuration().stale()).isPresent();

        etcd.start();
        long backNanos = System.nanoTime();
        await().atMost(CATCH_UP).until(() -> second.health().configuration().stale().isEmpty());
        long freshMillis = (System.nanoTime() - backNanos) / 1_000_000;
        // Connected once both its watches are back (the configuration's and its canary's), each on its own backoff.
        await("the same document, now read from etcd").atMost(CATCH_UP.minusNanos(System.nanoTime() - backNanos))
                .until(() -> second.health().configuration().healthy());
        assertThat(gauge(registry, SdkMetrics.CONFIG_STALE)).isZero();

        long r2 = etcd.put(key, PLATFORM.replace("weight: 70", "weight: 60").replace("weight: 30", "weight: 40"));
        long putNanos = System.nanoTime();
        await().atMost(Duration.ofSeconds(1)).until(() -> gauge(registry, SdkMetrics.CONFIG_REVISION) == r2);
        long appliedMillis = (System.nanoTime() - putNanos) / 1_000_000;
        assertThat(second.health().configuration().healthy()).isTrue();
        await().atMost(Duration.ofSeconds(1)).until(() -> snapshot().revision() == r2);
        System.out.printf("config snapshot start: ready (start + first send) %d ms on the snapshot; current document applied "
                + "%d ms after etcd was back; a change published then applied in %d ms%n", readyMillis, freshMillis, appliedMillis);
    }

    @Test
    void withoutSnapshotAndWithoutEtcdTheStartFailsNamingTheEndpointsAndTheMissingSnapshot() throws Exception {
        etcd.put(key, PLATFORM);
        etcd.stop();

        assertThatThrownBy(() -> start(new SimpleMeterRegistry()))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("cannot read platform configuration etcd://" + etcd.endpoint() + key)
                .hasMessageContaining("UNAVAILABLE")
                .hasMessageContaining("there is no snapshot of it to start from (" + snapshotFile() + ")");
    }

    @Test
    void aDamagedSnapshotIsRefusedNamingTheFileAndNothingStarts() throws Exception {
        etcd.put(key, PLATFORM);
        start(new SimpleMeterRegistry()).close();
        etcd.stop();
        Files.writeString(snapshotFile(), Files.readString(snapshotFile()).replace("weight: 70", "weight: 99"));

        assertThatThrownBy(() -> start(new SimpleMeterRegistry()))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("cannot read platform configuration etcd://" + etcd.endpoint() + key)
                .hasMessageContaining("configuration snapshot " + snapshotFile() + " is refused: its checksum does not match");
        assertThat(sentTopics()).isEmpty();
    }

    @Test
    void aHungEtcdDelaysTheStartOnTheSnapshotByTwoSecondsAtMost() throws Exception {
        // A listening socket that is never accepted: TCP connects, etcd's gRPC never answers (a hung etcd).
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            String source = "etcd://127.0.0.1:" + silent.getLocalPort() + key;
            new ConfigSnapshotStore(snapshots).save(ConfigDocument.fresh(source, key, 7, PLATFORM));
            long startNanos = System.nanoTime();
            CoreMessagingClient client = CoreMessagingClient.start(ClientOptions.builder("snapshot-test").configLocation(source)
                            .environment("staging").configSnapshotDirectory(snapshots).build(), new SimpleMeterRegistry(),
                    ObservationRegistry.NOOP, Ticker.system(), InstantSource.system(), Optional.of(binding));
            closeables.add(client);
            long startMillis = (System.nanoTime() - startNanos) / 1_000_000;
            System.out.printf("config snapshot start with a hung etcd: ready in %d ms%n", startMillis);
            assertThat(client.health().configuration().stale()).hasValueSatisfying(stale -> assertThat(stale.revision()).isEqualTo(7));
            assertThat(startMillis).as("the start's wait for etcd when a snapshot is there (2 s), not the request timeout (5 s)")
                    .isLessThan(EtcdConfigSource.SNAPSHOT_START_WAIT.toMillis() + 500);
        }
    }

    @Test
    void snapshotsTurnedOffWriteNothing() throws Exception {
        etcd.put(key, PLATFORM);
        CoreMessagingClient client = CoreMessagingClient.start(ClientOptions.builder("snapshot-test")
                        .configLocation("etcd://" + etcd.endpoint() + key).noConfigSnapshots().build(), new SimpleMeterRegistry(),
                ObservationRegistry.NOOP, Ticker.system(), InstantSource.system(), Optional.of(binding));
        closeables.add(client);

        assertThat(snapshots).isEmptyDirectory();
    }
}
