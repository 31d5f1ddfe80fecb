package io.lanemq.configtool;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.config.etcd.EtcdClient;
import io.lanemq.config.store.ConfigStore;
import io.lanemq.config.store.HistoryEntry;
import io.lanemq.testkit.etcd.EtcdServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/** publish --canary, promote, abandon, history and rollback against a real etcd; one key per test. */
class CanaryCommandsIT {
    private static final String CHANGED = Documents.VALID.replace("weight: 70 }", "weight: 60 }").replace("weight: 30 }", "weight: 40 }");
    private static EtcdServer etcd;
    private static EtcdClient client;

    @TempDir
    Path dir;
    private String key;

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

    private ToolRun run(String command, String... options) {
        List<String> args = new ArrayList<>(List.of(command, "--etcd", etcd.endpoint(), "--key", key));
        args.addAll(List.of(options));
        return ToolRun.of(args.toArray(String[]::new));
    }

    private ToolRun publish(String document, String... options) throws Exception {
        Path file = Files.writeString(dir.resolve("platform.yaml"), document);
        List<String> args = new ArrayList<>(List.of(file.toString()));
        args.addAll(List.of(options));
        return run("publish", args.toArray(String[]::new));
    }

    @Test
    void aCanaryIsPublishedToItsSubsetThenPromotedAndTheHistoryTellsEachStep(TestInfo test) throws Exception {
        key = "/tool/" + test.getTestMethod().orElseThrow().getName();
        ConfigStore store = new ConfigStore(client, key);
        assertThat(publish(Documents.VALID, "-m", "base", "--author", "olga").exitCode()).isZero();
        long base = store.current().revision();

        ToolRun canary = publish(CHANGED, "--canary", "--percent", "10", "--application", "billing", "-m", "idc-b to 40%",
                "--author", "olga");
        assertThat(canary.exitCode()).as(canary.err()).isZero();
        assertThat(canary.out()).contains("as a canary to 10% of applications [billing] in etcd key " + key + ".canary");
        assertThat(store.current().revision()).as("the configuration is untouched").isEqualTo(base);

        ToolRun everyone = publish(Documents.VALID.replace("70/30", "70 / 30"), "-m", "unrelated");
        assertThat(everyone.exitCode()).isEqualTo(4);
        assertThat(everyone.err()).contains("a canary to 10% of applications [billing] is pending in " + key + ".canary",
                "promote or abandon it first");
        long canaryRevision = store.canary().orElseThrow().revision();
        ToolRun toCanary = run("rollback", String.valueOf(canaryRevision), "-m", "try");
        assertThat(toCanary.exitCode()).isEqualTo(1);
        assertThat(toCanary.err()).contains("was a canary", "never in force for every client");

        ToolRun history = run("history");
        assertThat(history.out()).contains("PENDING a canary to 10% of applications [billing]",
                canaryRevision + "  ", "olga  CANARY  canary to 10% of applications [billing] -- idc-b to 40%");

        ToolRun promote = run("promote", "-m", "billing fine for 30 min", "--author", "ivan");
        assertThat(promote.exitCode()).as(promote.err()).isZero();
        assertThat(store.current().yaml()).isEqualTo(CHANGED);
        assertThat(store.canary()).isEmpty();
        assertThat(store.history()).extracting(HistoryEntry::kind).containsExactly(HistoryEntry.Kind.PROMOTE,
                HistoryEntry.Kind.CANARY, HistoryEntry.Kind.PUBLISH);

        ToolRun rollback = run("rollback", String.valueOf(base), "-m", "back to 70/30", "--author", "ivan");
        assertThat(rollback.exitCode()).as(rollback.err()).isZero();
        assertThat(store.current().yaml()).isEqualTo(Documents.VALID);
        assertThat(store.history().get(0).change()).isEqualTo("roll back to revision " + base);
    }

    @Test
    void abandonLeavesTheConfigurationAndAStaleRevisionIsRefused(TestInfo test) throws Exception {
        key = "/tool/" + test.getTestMethod().orElseThrow().getName();
        ConfigStore store = new ConfigStore(client, key);
        publish(Documents.VALID, "-m", "base");
        long base = store.current().revision();
        assertThat(publish(CHANGED, "--canary", "--instance", "billing-0,billing-1").exitCode()).isZero();
        long canaryRevision = store.canary().orElseThrow().revision();

        ToolRun stale = run("abandon", "--expect-canary-revision", String.valueOf(canaryRevision - 1));
        assertThat(stale.exitCode()).isEqualTo(4);
        assertThat(stale.err()).contains("expected at revision " + (canaryRevision - 1), "nothing was written");

        ToolRun abandon = run("abandon", "-m", "latency up on billing-0");
        assertThat(abandon.exitCode()).as(abandon.err()).isZero();
        assertThat(abandon.out()).contains("abandoned a canary to instances [billing-0, billing-1]");
        assertThat(store.canary()).isEmpty();
        assertThat(store.current().revision()).isEqualTo(base);
        assertThat(run("promote").err()).contains("no canary is pending in " + key + ".canary");
    }

    @Test
    void subsetOptionsWithoutCanaryAndAnEmptySubsetAreUsageErrors(TestInfo test) throws Exception {
        key = "/tool/" + test.getTestMethod().orElseThrow().getName();

        ToolRun noCanary = publish(CHANGED, "--percent", "10");
        ToolRun nobody = publish(CHANGED, "--canary");

        assertThat(noCanary.exitCode()).isEqualTo(2);
        assertThat(noCanary.err()).contains("choose a canary's clients: add --canary");
        assertThat(nobody.exitCode()).isEqualTo(2);
        assertThat(nobody.err()).contains("a canary must choose some clients");
        assertThat(new ConfigStore(client, key).current().exists()).isFalse();
    }

    @Test
    void aPublishDroppingATopicIsRefusedByTheGuardUnlessForced(TestInfo test) throws Exception {
        key = "/tool/" + test.getTestMethod().orElseThrow().getName();
        String twoTopics = Documents.VALID + """
                  refunds:
                    routes:
                      - { cluster: cluster-a, physicalTopic: refunds, weight: 50 }
                      - { cluster: cluster-b, physicalTopic: refunds, weight: 50 }
                """;
        assertThat(publish(twoTopics, "-m", "base").exitCode()).isZero();

        ToolRun refused = publish(Documents.VALID, "-m", "drop refunds");
        ToolRun forced = publish(Documents.VALID, "-m", "refunds retired", "--force");

        assertThat(refused.exitCode()).isEqualTo(5);
        assertThat(refused.err()).contains("refused: logic topic 'refunds' is removed from environment 'default': every "
                + "send to it would fail", "publish with --force");
        assertThat(forced.exitCode()).as(forced.err()).isZero();
        assertThat(forced.err()).contains("forced past: logic topic 'refunds' is removed");
        assertThat(new ConfigStore(client, key).current().yaml()).isEqualTo(Documents.VALID);
    }
}
