package io.lanemq.config.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.lanemq.config.etcd.EtcdClient;
import io.lanemq.testkit.etcd.EtcdServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The store the console and the config tool share, against a real etcd: one key per test. */
class ConfigStoreIT {
    private static EtcdServer etcd;
    private static EtcdClient client;

    @BeforeAll
    static void start() {
        etcd = EtcdServer.started();
        client = EtcdClient.builder(etcd.endpoint()).build();
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
        if (etcd != null) {
            etcd.close();
        }
    }

    @Test
    void publishesOverTheRevisionItWasGivenAndKeepsOneHistoryEntryPerPublication() throws Exception {
        ConfigStore store = new ConfigStore(client, "/store/a");

        PublishOutcome first = store.publish(0, "v: 1\n", null, "olga", "first", "publish a.yaml", "+v: 1");
        String diff = YamlDiff.between("v: 1\n", "v: 2\n", "revision " + first.revision(), "b.yaml");
        PublishOutcome second = store.publish(first.revision(), "v: 2\n", "v: 1\n", "ivan", "second", "publish b.yaml", diff);

        assertThat(first.written()).isTrue();
        assertThat(second.written()).isTrue();
        assertThat(store.current()).isEqualTo(new Published("v: 2\n", second.revision()));
        assertThat(store.history()).as("newest first, each at the revision that wrote the document")
                .extracting(HistoryEntry::revision, HistoryEntry::author, HistoryEntry::comment, HistoryEntry::previousYaml)
                .containsExactly(tuple(second.revision(), "ivan", "second", "v: 1\n"),
                        tuple(first.revision(), "olga", "first", ""));
        assertThat(store.entry(second.revision()).orElseThrow().diff()).isEqualTo("""
                --- revision %d
                +++ b.yaml
                @@ -1,1 +1,1 @@
                -v: 1
                +v: 2""".formatted(first.revision()));
    }

    @Test
    void refusesAPublicationOverAnOlderRevisionAndWritesNeitherTheDocumentNorItsHistory() throws Exception {
        ConfigStore store = new ConfigStore(client, "/store/b");
        long base = store.publish(0, "v: 1\n", null, "olga", "first", "publish", "").revision();
        long concurrent = etcd.put("/store/b", "v: someone else's\n");

        PublishOutcome refused = store.publish(base, "v: 2\n", "v: 1\n", "ivan", "stale", "publish", "");

        assertThat(refused.written()).isFalse();
        assertThat(refused.revision()).as("the revision the key is at now").isEqualTo(concurrent);
        assertThat(store.current()).isEqualTo(new Published("v: someone else's\n", concurrent));
        assertThat(store.history()).extracting(HistoryEntry::author).containsExactly("olga");
    }

    @Test
    void aFirstPublicationRequiresTheKeyToBeAbsent() throws Exception {
        ConfigStore store = new ConfigStore(client, "/store/c");
        etcd.put("/store/c", "v: there already\n");

        assertThat(store.publish(0, "v: 1\n", null, "olga", "first", "publish", "").written()).isFalse();
        assertThat(store.current().yaml()).isEqualTo("v: there already\n");
    }
}
