package io.lanemq.config;

import static io.lanemq.config.ConfigDocuments.weightOfA;
import static io.lanemq.config.ConfigDocuments.weights;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lanemq.config.etcd.EtcdClient;
import io.lanemq.config.store.ConfigStore;
import io.lanemq.config.store.HistoryEntry;
import io.lanemq.config.store.PublishOutcome;
import io.lanemq.testkit.etcd.EtcdServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** Canary steps through the shared store, watched by clients of a real etcd: one key per test. */
class EtcdCanaryIT {
    private static final Duration PICKUP = Duration.ofSeconds(2);
    private static final ClientIdentity CHOSEN = new ClientIdentity("orders", "orders-1");
    private static final ClientIdentity OTHER = new ClientIdentity("orders", "orders-2");
    private static EtcdServer etcd;
    private static EtcdClient client;

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private String key;
    private ConfigStore store;

    @BeforeAll
    static void startEtcd() {
        etcd = EtcdServer.started();
        client = EtcdClient.builder(etcd.endpoint()).build();
    }

    @AfterAll
    static void stopEtcd() {
        if (client != null) {
            client.close();
        }
        if (etcd != null) {
            etcd.close();
        }
    }

    @BeforeEach
    void key(TestInfo test) {
        key = "/lanemq/canary/" + test.getTestMethod().orElseThrow().getName();
        store = new ConfigStore(client, key);
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : closeables) {
            closeable.close();
        }
    }

    private EtcdConfigSource source(ClientIdentity identity) throws Exception {
        EtcdConfigSource source = (EtcdConfigSource) ConfigSources.open("etcd://" + etcd.endpoint() + key, Optional.empty(),
                Optional.empty(), Optional.of(identity));
        closeables.add(source);
        return source;
    }

    private RecordingListener watched(ClientIdentity identity) throws Exception {
        EtcdConfigSource source = source(identity);
        source.load();
        RecordingListener listener = new RecordingListener();
        source.watch(listener);
        await().atMost(PICKUP).until(source::isConnected);
        return listener;
    }

    private long publish(String yaml) throws Exception {
        PublishOutcome outcome = store.publish(store.current().revision(), yaml, store.current().yaml(), "olga", "base",
                "publish", "");
        assertThat(outcome.written()).isTrue();
        return outcome.revision();
    }

    private PublishOutcome canary(long base, String yaml, String... instances) throws Exception {
        return store.publishCanary(0, new Canary(base, new CanaryTarget(List.of(instances), List.of(), 0), yaml),
                "olga", "try 50/50 on one instance", "");
    }

    @Test
    void aCanaryMovesOnlyTheChosenClientAndPromotionMovesEveryoneOnce() throws Exception {
        long base = publish(weights(100, 0));
        RecordingListener chosen = watched(CHOSEN);
        RecordingListener other = watched(OTHER);

        PublishOutcome canary = canary(base, weights(50, 50), CHOSEN.instance());
        assertThat(canary.written()).isTrue();
        await().atMost(PICKUP).until(() -> chosen.changes().size() == 1);
        ConfigDocument candidate = chosen.changes().get(0).document().orElseThrow();
        assertThat(weightOfA(chosen.changes().get(0))).isEqualTo(50);
        assertThat(candidate.canary()).isTrue();
        assertThat(candidate.revision()).as("the canary's own revision").isEqualTo(canary.revision());

        PublishOutcome promoted = store.promote(canary.revision(), "ivan", "looks good");
        assertThat(promoted.written()).isTrue();
        await().atMost(PICKUP).until(() -> other.changes().size() == 1 && chosen.changes().size() == 2);
        assertThat(weightOfA(other.changes().get(0))).isEqualTo(50);
        assertThat(chosen.changes().get(1).document().orElseThrow())
                .as("the chosen client now runs the configuration, at the promotion's revision")
                .extracting(ConfigDocument::canary, ConfigDocument::revision).containsExactly(false, promoted.revision());
        assertThat(store.canary()).as("promoted: no canary pending").isEmpty();
        assertThat(store.current().yaml()).isEqualTo(weights(50, 50));

        List<HistoryEntry> history = store.history();
        assertThat(history).extracting(HistoryEntry::kind, HistoryEntry::author).containsExactly(
                org.assertj.core.groups.Tuple.tuple(HistoryEntry.Kind.PROMOTE, "ivan"),
                org.assertj.core.groups.Tuple.tuple(HistoryEntry.Kind.CANARY, "olga"),
                org.assertj.core.groups.Tuple.tuple(HistoryEntry.Kind.PUBLISH, "olga"));
        assertThat(history.get(0).diff()).contains("-      - { cluster: cluster-a, physicalTopic: order_paid, weight: 100 }");
        assertThat(history.get(1).change()).isEqualTo("canary to instances [orders-1]");
        assertThat(history.get(1).ranEverywhere()).isFalse();
    }

    @Test
    void abandonReturnsTheChosenClientToTheConfiguration() throws Exception {
        long base = publish(weights(100, 0));
        RecordingListener chosen = watched(CHOSEN);
        RecordingListener other = watched(OTHER);
        PublishOutcome canary = canary(base, weights(50, 50), CHOSEN.instance());
        await().atMost(PICKUP).until(() -> chosen.changes().size() == 1);

        assertThat(store.abandon(canary.revision(), "ivan", "idc-b looks slow").written()).isTrue();

        await().atMost(PICKUP).until(() -> chosen.changes().size() == 2);
        assertThat(weightOfA(chosen.changes().get(1))).isEqualTo(100);
        assertThat(chosen.changes().get(1).document().orElseThrow().canary()).isFalse();
        assertThat(other.calls()).isEmpty();
        assertThat(store.current().revision()).as("the configuration was not touched").isEqualTo(base);
        assertThat(store.history().get(0).kind()).isEqualTo(HistoryEntry.Kind.ABANDON);
    }

    @Test
    void aClientRestartingDuringACanaryStartsOnWhatItIsChosenFor() throws Exception {
        long base = publish(weights(100, 0));
        canary(base, weights(50, 50), CHOSEN.instance());

        assertThat(weightOfA(source(CHOSEN).load())).isEqualTo(50);
        assertThat(weightOfA(source(OTHER).load())).isEqualTo(100);
    }

    @Test
    void stepsOverAMovedRevisionAreRefusedAndAPublishWaitsForThePendingCanary() throws Exception {
        long base = publish(weights(100, 0));
        PublishOutcome first = canary(base, weights(50, 50), CHOSEN.instance());

        assertThat(canary(base, weights(0, 100), OTHER.instance()).written())
                .as("a second canary over a pending one without naming its revision").isFalse();
        PublishOutcome everyone = store.publish(base, weights(0, 100), weights(100, 0), "erik", "now", "publish", "");
        assertThat(everyone.written()).isFalse();
        assertThat(everyone.canaryPending()).isTrue();
        assertThat(store.promote(first.revision() - 1, "ivan", "stale").written()).isFalse();
        assertThat(store.abandon(first.revision(), "ivan", "done").written()).isTrue();
        assertThatThrownBy(() -> store.promote(first.revision(), "ivan", "gone"))
                .hasMessageContaining("no canary is pending in " + key + ".canary");
        assertThat(store.publish(base, weights(0, 100), weights(100, 0), "erik", "now", "publish", "").written()).isTrue();
    }

    @Test
    void aCanaryMadeFromAnOlderConfigurationIsNotRun() throws Exception {
        long base = publish(weights(100, 0));
        canary(base, weights(50, 50), CHOSEN.instance());
        // Written around the tools: the configuration moves under the pending canary.
        client.put(key, weights(90, 10));

        assertThat(weightOfA(source(CHOSEN).load())).as("the candidate is stale; the configuration wins").isEqualTo(90);
    }
}
