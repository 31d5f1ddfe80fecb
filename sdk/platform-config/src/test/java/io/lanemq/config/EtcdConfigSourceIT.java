package io.lanemq.config;

import static io.lanemq.config.ConfigDocuments.UNKNOWN_CLUSTER;
import static io.lanemq.config.ConfigDocuments.UNKNOWN_CLUSTER_PROBLEM;
import static io.lanemq.config.ConfigDocuments.weightOfA;
import static io.lanemq.config.ConfigDocuments.weights;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.testkit.etcd.EtcdServer;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The etcd source against a real etcd (Debian's etcd-server, started by the testkit), one key per test.
 *
 * <p>The outage is 4 s rather than the 10 s: the client's reconnect backoff (100 ms doubling, jittered,
 * capped at 2 s) reaches its cap after about 3 s, so from then on a longer outage only repeats the same attempt.
 */
class EtcdConfigSourceIT {
    private static final Duration PICKUP = Duration.ofSeconds(1);
    /** Reconnect backoff cap (2 s) plus a restart and a margin. */
    private static final Duration RECONNECT = Duration.ofSeconds(6);
    private static final Duration QUIET = Duration.ofMillis(800);
    private static final Duration OUTAGE = Duration.ofSeconds(4);

    private static EtcdServer etcd;

    private final RecordingListener listener = new RecordingListener();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private String key;

    @BeforeAll
    static void startEtcd() {
        etcd = EtcdServer.started();
    }

    @AfterAll
    static void stopEtcd() {
        if (etcd != null) {
            etcd.close();
        }
    }

    @BeforeEach
    void key(TestInfo test) {
        key = "/lanemq/platform/" + test.getTestMethod().orElseThrow().getName();
        if (!etcd.isRunning()) {
            etcd.start(); // a failed restart test must not take the others down with it
        }
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : closeables) {
            closeable.close();
        }
    }

    private EtcdConfigSource open(String endpoints) throws InvalidConfigurationException {
        EtcdConfigSource source = (EtcdConfigSource) ConfigSources.open("etcd://" + endpoints + key);
        closeables.add(source);
        return source;
    }

    private EtcdConfigSource watched(String endpoints) throws InvalidConfigurationException {
        EtcdConfigSource source = open(endpoints);
        source.load();
        source.watch(listener);
        await().atMost(PICKUP).until(source::isConnected);
        return source;
    }

    @Test
    void loadReadsTheDocumentAtTheKey() throws Exception {
        etcd.put(key, weights(70, 30));

        EtcdConfigSource source = open(etcd.endpoint());

        assertThat(weightOfA(source.load())).isEqualTo(70);
        assertThat(source.describe()).isEqualTo("etcd://" + etcd.endpoint() + key);
    }

    @Test
    void aMissingKeyIsAnErrorNamingKeyAndEndpoints() throws Exception {
        EtcdConfigSource source = open(etcd.endpoint());

        assertThatThrownBy(source::load)
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("etcd key '" + key + "' does not exist on [" + etcd.endpoint() + "]")
                .hasMessageContaining("lanemq-config publish");
    }

    @Test
    void anUnreachableEtcdIsAnErrorNamingTheEndpoints() throws Exception {
        String nobody = "127.0.0.1:" + closedPort();
        EtcdConfigSource source = open(nobody);

        assertThatThrownBy(source::load)
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("cannot read platform configuration etcd://" + nobody + key)
                .hasMessageContaining("UNAVAILABLE");
    }

    @Test
    void aDeadFirstEndpointIsSkipped() throws Exception {
        etcd.put(key, weights(50, 50));
        watched("127.0.0.1:" + closedPort() + "," + etcd.endpoint());

        etcd.put(key, weights(60, 40));

        await().atMost(RECONNECT).until(() -> listener.count() == 1);
        assertThat(weightOfA(listener.last().change())).isEqualTo(60);
    }

    @Test
    void putsAreDeliveredWithinOneSecondFromTheWatchThread() throws Exception {
        etcd.put(key, weights(50, 50));
        watched(etcd.endpoint());

        List<Long> latencies = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            int weight = i % 2 == 0 ? 50 + i : 50 - i;
            long put = System.nanoTime();
            etcd.put(key, weights(weight, 100 - weight));
            await().atMost(PICKUP).until(() -> listener.count() == latencies.size() + 1);
            latencies.add(listener.last().nanos() - put);
            assertThat(weightOfA(listener.last().change())).isEqualTo(weight);
        }
        assertThat(listener.calls()).allSatisfy(c -> assertThat(c.thread()).isEqualTo("lanemq-config-watch-etcd" + key));
        System.out.println("etcd put -> onChange: " + ConfigDocuments.summary(latencies));
    }

    @Test
    void anInvalidPutIsRejectedWithKeyAndLineAndTheNextValidOneIsDelivered() throws Exception {
        etcd.put(key, weights(50, 50));
        watched(etcd.endpoint());

        long revision = etcd.put(key, UNKNOWN_CLUSTER);
        await().atMost(PICKUP).until(() -> listener.count() == 1);
        assertThat(listener.changes()).isEmpty();
        assertThat(listener.last().rejection())
                .hasMessageContaining(UNKNOWN_CLUSTER_PROBLEM)
                .hasMessageContaining(key + " (revision " + revision + ")");

        etcd.put(key, weights(80, 20));
        await().atMost(PICKUP).until(() -> listener.count() == 2);
        assertThat(weightOfA(listener.last().change())).isEqualTo(80);
    }

    @Test
    void anIdenticalPutOrAnotherKeyDeliversNothing() throws Exception {
        etcd.put(key, weights(50, 50));
        watched(etcd.endpoint());

        etcd.put(key, weights(50, 50));
        etcd.put(key + "-other", weights(10, 90));

        await().during(QUIET).atMost(QUIET.plusSeconds(1)).until(() -> listener.count() == 0);
    }

    @Test
    void aDeletedKeyIsRejectedAndItsReturnIsDelivered() throws Exception {
        etcd.put(key, weights(50, 50));
        watched(etcd.endpoint());

        etcd.delete(key);
        await().atMost(PICKUP).until(() -> listener.count() == 1);
        assertThat(listener.last().rejection()).hasMessageContaining("etcd key '" + key + "' was deleted");

        etcd.put(key, weights(50, 50));
        await().atMost(PICKUP).until(() -> listener.count() == 2);
        assertThat(weightOfA(listener.last().change())).isEqualTo(50);
    }

    @Test
    void aPutBetweenLoadAndWatchIsDelivered() throws Exception {
        etcd.put(key, weights(50, 50));
        EtcdConfigSource source = open(etcd.endpoint());
        source.load();
        etcd.put(key, weights(90, 10));

        source.watch(listener);

        await().atMost(PICKUP).until(() -> listener.count() == 1);
        assertThat(weightOfA(listener.last().change())).isEqualTo(90);
    }

    @Test
    void etcdStoppedThenRestartedDeliversNothingMeanwhileAndThePutAfterTheRestart() throws Exception {
        etcd.put(key, weights(50, 50));
        EtcdConfigSource source = watched(etcd.endpoint());

        etcd.stop();
        await().atMost(PICKUP).until(() -> !source.isConnected());
        await().during(OUTAGE).atMost(OUTAGE.plusSeconds(1)).until(() -> listener.count() == 0);
        etcd.start();
        long put = System.nanoTime();
        etcd.put(key, weights(0, 100));

        await().atMost(RECONNECT).until(() -> listener.count() == 1);
        System.out.printf("etcd restart: put -> onChange %.0f ms (reconnect backoff included)%n", (listener.last().nanos() - put) / 1e6);
        assertThat(weightOfA(listener.last().change())).isEqualTo(0);
        etcd.put(key, weights(100, 0));
        await().atMost(PICKUP).until(() -> listener.count() == 2);
        assertThat(weightOfA(listener.last().change())).isEqualTo(100);
    }

    @Test
    void etcdKilledThenRestartedResumes() throws Exception {
        etcd.put(key, weights(50, 50));
        EtcdConfigSource source = watched(etcd.endpoint());

        etcd.kill();
        await().atMost(PICKUP).until(() -> !source.isConnected());
        etcd.start();
        etcd.put(key, weights(30, 70));

        await().atMost(RECONNECT).until(() -> listener.count() == 1);
        assertThat(weightOfA(listener.last().change())).isEqualTo(30);
    }

    /** etcd keeps running and changing while this client is cut off from it. */
    @Test
    void aWatchCutOffResumesFromItsLastRevisionAndRereadsTheKeyWhenThatHistoryWasCompacted() throws Exception {
        etcd.put(key, weights(50, 50));
        try (TcpRelay relay = new TcpRelay(etcd.clientPort())) {
            EtcdConfigSource source = watched(relay.endpoint());

            relay.cut();
            await().atMost(PICKUP).until(() -> !source.isConnected());
            etcd.put(key, weights(10, 90));
            relay.restore();
            await().atMost(RECONNECT).until(() -> listener.count() == 1);
            assertThat(weightOfA(listener.last().change())).isEqualTo(10);

            relay.cut();
            await().atMost(PICKUP).until(() -> !source.isConnected());
            etcd.put(key, weights(20, 80));
            etcd.put(key, weights(30, 70));
            etcd.compact(etcd.put(key, weights(40, 60)));
            relay.restore();

            await().atMost(RECONNECT).until(() -> listener.count() == 2);
            assertThat(weightOfA(listener.last().change())).isEqualTo(40);
            await().during(QUIET).atMost(QUIET.plusSeconds(1)).until(() -> listener.count() == 2);
        }
    }

    @Test
    void closeStopsTheWatchThread() throws Exception {
        etcd.put(key, weights(50, 50));
        EtcdConfigSource source = watched(etcd.endpoint());
        assertThat(watchThreadAlive()).isTrue();

        source.close();

        assertThat(source.isConnected()).isFalse();
        assertThat(watchThreadAlive()).isFalse();
        etcd.put(key, weights(1, 99));
        await().during(QUIET).atMost(QUIET.plusSeconds(1)).until(() -> listener.count() == 0);
    }

    private boolean watchThreadAlive() {
        String name = "lanemq-config-watch-etcd" + key;
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(name));
    }

    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
