package io.lanemq.config.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.lanemq.testkit.etcd.EtcdServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Compare-and-put and prefix reads against a real etcd (the testkit's), one key per test. */
class EtcdClientCompareAndPutIT {
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
    void writesTheKeyAndItsCompanionsTogetherWhenTheKeyIsStillAtTheExpectedRevision() throws Exception {
        long first = client.put("/cas/a", "one");

        CompareAndPutResult result = client.compareAndPut("/cas/a", first, "two", Map.of("/cas/a.history/1", "record"));

        assertThat(result.written()).isTrue();
        assertThat(client.get("/cas/a").orElseThrow()).as("the key, at the write's revision")
                .extracting(EtcdEntry::value, EtcdEntry::modRevision).containsExactly("two", result.revision());
        assertThat(client.get("/cas/a.history/1").orElseThrow().modRevision()).as("the companion, in the same revision")
                .isEqualTo(result.revision());
    }

    @Test
    void refusesAnEditorWhoStartedFromAnOlderRevisionAndShowsWhatCameFirst() throws Exception {
        long started = client.put("/cas/b", "base");
        long concurrent = client.put("/cas/b", "someone else's change");

        CompareAndPutResult result = client.compareAndPut("/cas/b", started, "mine", Map.of("/cas/b.history/1", "record"));

        assertThat(result.written()).isFalse();
        assertThat(result.current().orElseThrow()).extracting(EtcdEntry::value, EtcdEntry::modRevision)
                .containsExactly("someone else's change", concurrent);
        assertThat(client.get("/cas/b").orElseThrow().value()).as("nothing overwritten").isEqualTo("someone else's change");
        assertThat(client.get("/cas/b.history/1")).as("no companion written either").isEmpty();
    }

    @Test
    void revisionZeroCreatesAKeyOnlyWhenItDoesNotExist() throws Exception {
        CompareAndPutResult created = client.compareAndPut("/cas/c", 0, "first", Map.of());
        CompareAndPutResult again = client.compareAndPut("/cas/c", 0, "second", Map.of());

        assertThat(created.written()).isTrue();
        assertThat(again.written()).isFalse();
        assertThat(again.current().orElseThrow().value()).isEqualTo("first");
    }

    @Test
    void listsTheKeysUnderAPrefixInKeyOrderAndNothingBeside() throws Exception {
        client.put("/list/x.history/0000000002", "b");
        client.put("/list/x.history/0000000001", "a");
        client.put("/list/x.historz", "beside");
        client.put("/list/x", "the key itself");

        List<EtcdEntry> entries = client.list("/list/x.history/");

        assertThat(entries).extracting(EtcdEntry::key, EtcdEntry::value).containsExactly(
                tuple("/list/x.history/0000000001", "a"),
                tuple("/list/x.history/0000000002", "b"));
    }
}
