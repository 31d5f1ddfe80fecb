package io.lanemq.config;

import static io.lanemq.config.ConfigDocuments.weightOfA;
import static io.lanemq.config.ConfigDocuments.weights;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A canary beside a configuration file ({@code platform.yaml.canary}): the chosen client runs it, the others do not. */
class FileCanaryTest {
    private static final Duration PICKUP = Duration.ofSeconds(3);
    private static final ClientIdentity CHOSEN = new ClientIdentity("orders", "orders-1");
    private static final ClientIdentity OTHER = new ClientIdentity("orders", "orders-2");

    @TempDir
    Path dir;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : closeables) {
            closeable.close();
        }
    }

    private Path platform() {
        return dir.resolve("platform.yaml");
    }

    private Path canaryFile() {
        return dir.resolve("platform.yaml.canary");
    }

    private static String canaryOf(String document, String... instances) {
        return new Canary(0, new CanaryTarget(List.of(instances), List.of(), 0), document).toText();
    }

    private FileConfigSource source(ClientIdentity client) {
        FileConfigSource source = new FileConfigSource(platform(), new PlatformConfigParser(), Duration.ofMillis(200),
                Optional.of(client));
        closeables.add(source);
        return source;
    }

    @Test
    void aClientStartingDuringACanaryRunsWhatItsIdentityChooses() throws Exception {
        Files.writeString(platform(), weights(100, 0));
        Files.writeString(canaryFile(), canaryOf(weights(50, 50), CHOSEN.instance()));

        PlatformConfig chosen = source(CHOSEN).load();
        PlatformConfig other = source(OTHER).load();
        PlatformConfig anonymous = new FileConfigSource(platform(), new PlatformConfigParser()).load();

        assertThat(weightOfA(chosen)).as("the chosen instance starts on the candidate").isEqualTo(50);
        assertThat(chosen.document().orElseThrow().canary()).isTrue();
        assertThat(weightOfA(other)).as("another instance of the application keeps the configuration").isEqualTo(100);
        assertThat(other.document().orElseThrow().canary()).isFalse();
        assertThat(weightOfA(anonymous)).as("a reader without an identity is never chosen").isEqualTo(100);
    }

    @Test
    void aCanaryReachesOnlyTheChosenClientAndAbandoningItBringsThatClientBack() throws Exception {
        Files.writeString(platform(), weights(100, 0));
        FileConfigSource chosen = source(CHOSEN);
        FileConfigSource other = source(OTHER);
        RecordingListener chosenCalls = new RecordingListener();
        RecordingListener otherCalls = new RecordingListener();
        chosen.load();
        other.load();
        chosen.watch(chosenCalls);
        other.watch(otherCalls);

        Files.writeString(canaryFile(), canaryOf(weights(50, 50), CHOSEN.instance()));
        await().atMost(PICKUP).until(() -> chosenCalls.changes().size() == 1);
        assertThat(weightOfA(chosenCalls.changes().get(0))).isEqualTo(50);
        assertThat(chosenCalls.changes().get(0).document().orElseThrow().canary()).isTrue();

        Files.delete(canaryFile());
        await().atMost(PICKUP).until(() -> chosenCalls.changes().size() == 2);
        assertThat(weightOfA(chosenCalls.changes().get(1))).as("abandoned: back on the configuration").isEqualTo(100);
        assertThat(chosenCalls.changes().get(1).document().orElseThrow().canary()).isFalse();
        assertThat(otherCalls.calls()).as("the other instance saw neither").isEmpty();
        assertThat(chosenCalls.rejections()).as("no canary is not an error").isEmpty();
    }

    @Test
    void promotingIsTheConfigurationBecomingTheCandidateThenTheCanaryGoing() throws Exception {
        Files.writeString(platform(), weights(100, 0));
        Files.writeString(canaryFile(), canaryOf(weights(50, 50), CHOSEN.instance()));
        FileConfigSource chosen = source(CHOSEN);
        FileConfigSource other = source(OTHER);
        RecordingListener chosenCalls = new RecordingListener();
        RecordingListener otherCalls = new RecordingListener();
        chosen.load();
        other.load();
        chosen.watch(chosenCalls);
        other.watch(otherCalls);

        Files.writeString(platform(), weights(50, 50));
        await().atMost(PICKUP).until(() -> otherCalls.changes().size() == 1);
        Files.delete(canaryFile());
        await().atMost(PICKUP).until(() -> chosenCalls.changes().size() == 1);

        assertThat(weightOfA(otherCalls.changes().get(0))).isEqualTo(50);
        assertThat(weightOfA(chosenCalls.changes().get(0))).as("the same document, now as the configuration").isEqualTo(50);
        assertThat(chosenCalls.changes().get(0).document().orElseThrow().canary()).isFalse();
    }

    @Test
    void anInvalidCandidateIsRejectedByTheChosenClientWhichKeepsItsConfiguration() throws Exception {
        Files.writeString(platform(), weights(100, 0));
        FileConfigSource chosen = source(CHOSEN);
        RecordingListener calls = new RecordingListener();
        chosen.load();
        chosen.watch(calls);

        Files.writeString(canaryFile(), canaryOf(ConfigDocuments.UNKNOWN_CLUSTER, CHOSEN.instance()));

        await().atMost(PICKUP).until(() -> calls.rejections().size() == 1);
        assertThat(calls.rejections().get(0)).hasMessageContaining(ConfigDocuments.UNKNOWN_CLUSTER_PROBLEM)
                .hasMessageContaining("platform.yaml.canary");
        assertThat(calls.changes()).isEmpty();
    }
}
