package io.lanemq.configtool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.lanemq.config.etcd.EtcdClient;
import io.lanemq.config.store.ConfigStore;
import io.lanemq.config.store.HistoryEntry;
import io.lanemq.config.store.Published;
import io.lanemq.testkit.etcd.EtcdServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * publish's compare-and-swap, --dry-run and diff against a real etcd, reading back through the store the console
 * uses ({@link ConfigStore}); one key per test.
 */
class PublishRevisionIT {
    /** Documents.VALID with the weights moved from 70/30 to 60/40: lines 8 and 9 of 11 differ. */
    private static final String CHANGED = Documents.VALID.replace("weight: 70 }", "weight: 60 }").replace("weight: 30 }", "weight: 40 }");
    private static EtcdServer etcd;
    private static EtcdClient client;

    @TempDir
    Path dir;

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

    @Test
    void aChangeSinceTheExpectedRevisionIsRefusedNamingBothRevisionsAndNothingIsWritten() throws Exception {
        String key = "/lanemq/platform/cas";
        ToolRun first = publish(Documents.VALID, key, "-m", "first");
        long expected = new ConfigStore(client, key).current().revision();
        long concurrent = etcd.put(key, Documents.VALID.replace("70/30", "70 / 30")); // someone else, around the tool

        ToolRun stale = publish(CHANGED, key, "--expect-revision", String.valueOf(expected));

        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(stale.exitCode()).isEqualTo(4);
        assertThat(stale.err()).contains("not published: etcd key " + key + " was expected at revision " + expected
                + " but is at revision " + concurrent, "nothing was written");
        ConfigStore store = new ConfigStore(client, key);
        assertThat(store.current()).isEqualTo(new Published(Documents.VALID.replace("70/30", "70 / 30"), concurrent));
        assertThat(store.history()).extracting(HistoryEntry::comment).containsExactly("first");
    }

    @Test
    void aFirstPublicationExpectingAnAbsentKeyIsRefusedWhenTheKeyExists() throws Exception {
        String key = "/lanemq/platform/exists";
        long there = etcd.put(key, Documents.VALID);

        ToolRun run = publish(CHANGED, key, "--expect-revision", "0");

        assertThat(run.exitCode()).isEqualTo(4);
        assertThat(run.err()).contains("was expected at revision 0 but is at revision " + there);
        assertThat(etcd.get(key)).contains(Documents.VALID);
    }

    @Test
    void dryRunValidatesAndPrintsTheDiffButWritesNothing() throws Exception {
        String key = "/lanemq/platform/dry-run";
        long live = etcd.put(key, Documents.VALID);

        ToolRun run = publish(CHANGED, key, "--dry-run");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("VALID ", "-      - { cluster: cluster-a, physicalTopic: order_paid, weight: 70 }",
                "+      - { cluster: cluster-a, physicalTopic: order_paid, weight: 60 }",
                "dry run: would publish", "over revision " + live + "; nothing written");
        ConfigStore store = new ConfigStore(client, key);
        assertThat(store.current()).as("value and revision untouched").isEqualTo(new Published(Documents.VALID, live));
        assertThat(store.history()).isEmpty();
    }

    @Test
    void diffPrintsTheUnifiedDiffFromTheLiveDocumentToTheFile() throws Exception {
        String key = "/lanemq/platform/diff";
        long live = etcd.put(key, Documents.VALID);
        Path file = Files.writeString(dir.resolve("platform.yaml"), CHANGED);

        ToolRun diff = ToolRun.of("diff", file.toString(), "--etcd", etcd.endpoint(), "--key", key);
        ToolRun absent = ToolRun.of("diff", file.toString(), "--etcd", etcd.endpoint(), "--key", "/lanemq/platform/absent");

        assertThat(diff.exitCode()).as(diff.err()).isZero();
        assertThat(diff.out()).isEqualTo("""
                --- %s at revision %d
                +++ %s
                @@ -5,7 +5,7 @@
                 topics:
                   order-paid:
                     routes:
                -      - { cluster: cluster-a, physicalTopic: order_paid, weight: 70 }
                -      - { cluster: cluster-b, physicalTopic: order_paid, weight: 30 }
                +      - { cluster: cluster-a, physicalTopic: order_paid, weight: 60 }
                +      - { cluster: cluster-b, physicalTopic: order_paid, weight: 40 }
                     consumerGroups:
                       billing: { threads: 4 }
                """.formatted(key, live, file));
        assertThat(diff.err()).contains("2 lines removed, 2 added against etcd key " + key + " at revision " + live);
        assertThat(absent.out()).as("against an absent key every line is added").startsWith("--- /lanemq/platform/absent (absent)\n")
                .contains("@@ -1,0 +1,11 @@");
        assertThat(etcd.get(key)).as("diff writes nothing").contains(Documents.VALID);
    }

    @Test
    void publishWritesOverTheRevisionItReadAndKeepsTheHistoryTheConsoleShows() throws Exception {
        String key = "/lanemq/platform/history";

        ToolRun first = publish(Documents.VALID, key, "--expect-revision", "0", "--author", "olga", "-m", "first cut");
        long firstRevision = new ConfigStore(client, key).current().revision();
        ToolRun second = publish(CHANGED, key, "--author", "ivan", "-m", "60/40 for the idc-b upgrade");
        ToolRun again = publish(CHANGED, key);

        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(second.exitCode()).as(second.err()).isZero();
        ConfigStore store = new ConfigStore(client, key);
        Published now = store.current();
        assertThat(now.yaml()).isEqualTo(CHANGED);
        assertThat(second.out()).contains("at revision " + now.revision() + " (was at revision " + firstRevision + ")");
        assertThat(store.history()).extracting(HistoryEntry::revision, HistoryEntry::author, HistoryEntry::comment,
                        HistoryEntry::change, HistoryEntry::previousYaml)
                .containsExactly(tuple(now.revision(), "ivan", "60/40 for the idc-b upgrade", "publish platform.yaml", Documents.VALID),
                        tuple(firstRevision, "olga", "first cut", "publish platform.yaml", ""));
        assertThat(store.history().get(0).diff()).contains("+      - { cluster: cluster-b, physicalTopic: order_paid, weight: 40 }");
        assertThat(again.exitCode()).isZero();
        assertThat(again.out()).contains("not published: etcd key " + key + " already holds");
        assertThat(store.current().revision()).as("an unchanged file writes no new revision").isEqualTo(now.revision());
    }

    private ToolRun publish(String document, String key, String... options) throws Exception {
        Path file = Files.writeString(dir.resolve("platform.yaml"), document);
        List<String> args = new ArrayList<>(List.of("publish", file.toString(), "--etcd", etcd.endpoint(), "--key", key));
        args.addAll(List.of(options));
        return ToolRun.of(args.toArray(String[]::new));
    }
}
