package io.lanemq.configtool;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.testkit.etcd.EtcdServer;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** publish and show against a real etcd; one run through the shaded jar, as operators run it. */
class PublishCommandIT {
    private static EtcdServer etcd;

    @TempDir
    Path dir;

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

    @Test
    void publishWritesTheFileVerbatimAndPrintsTheRevisionAndShowPrintsItBack() throws Exception {
        Path file = Files.writeString(dir.resolve("platform.yaml"), Documents.VALID);
        String key = "/lanemq/platform/publish";

        ToolRun publish = ToolRun.of("publish", file.toString(), "--etcd", etcd.endpoint(), "--key", key);

        assertThat(publish.exitCode()).as(publish.err()).isZero();
        assertThat(publish.out()).contains("VALID " + file)
                .containsPattern("published .* to etcd key " + key + " on \\[" + etcd.endpoint() + "\\] at revision \\d+");
        assertThat(etcd.get(key)).contains(Documents.VALID);

        ToolRun show = ToolRun.of("show", "--etcd", etcd.endpoint(), "--key", key);
        assertThat(show.exitCode()).isZero();
        assertThat(show.out()).isEqualTo(Documents.VALID);
        assertThat(show.err()).contains("revision");
    }

    @Test
    void anInvalidFileIsNeverPublished() throws Exception {
        String key = "/lanemq/platform/refused";
        etcd.put(key, Documents.VALID);
        Path file = Files.writeString(dir.resolve("platform.yaml"), Documents.INVALID);

        ToolRun publish = ToolRun.of("publish", file.toString(), "--etcd", etcd.endpoint(), "--key", key);

        assertThat(publish.exitCode()).isEqualTo(1);
        assertThat(publish.err()).contains("(line 8): unknown cluster 'cluster-q'", "not published: etcd key " + key + " is unchanged");
        assertThat(etcd.get(key)).contains(Documents.VALID);
    }

    @Test
    void showWithEnvPrintsWhatAClientOfThatEnvironmentResolves() throws Exception {
        String key = "/lanemq/platform/environments";
        etcd.put(key, Documents.VALID + "environments:\n  staging: { physicalTopicSuffix: _staging }\n");

        ToolRun staging = ToolRun.of("show", "--etcd", etcd.endpoint(), "--key", key, "--env", "staging");

        assertThat(staging.exitCode()).isZero();
        assertThat(staging.out()).contains("physicalTopic: order_paid_staging").doesNotContain("environments");
        assertThat(ToolRun.of("show", "--etcd", etcd.endpoint(), "--key", key, "--env", "prod").err())
                .contains("no environment 'prod'");
    }

    @Test
    void showOfAMissingKeyExitsOne() {
        ToolRun show = ToolRun.of("show", "--etcd", etcd.endpoint(), "--key", "/lanemq/platform/none");

        assertThat(show.exitCode()).isEqualTo(1);
        assertThat(show.err()).contains("etcd key /lanemq/platform/none does not exist on [" + etcd.endpoint() + "]");
    }

    @Test
    void anUnreachableEtcdExitsThreeNamingTheEndpoint() throws Exception {
        Path file = Files.writeString(dir.resolve("platform.yaml"), Documents.VALID);
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }

        ToolRun publish = ToolRun.of("publish", file.toString(), "--etcd", "127.0.0.1:" + closed, "--key", "/k", "--timeout", "2");

        assertThat(publish.exitCode()).isEqualTo(3);
        assertThat(publish.err()).contains("not published", "127.0.0.1:" + closed, "UNAVAILABLE");
    }

    /** The shaded jar must carry gRPC's service files, or the channel finds no transport or name resolver. */
    @Test
    void theShadedJarPublishes() throws Exception {
        Path jar = Path.of("target", "lanemq-config.jar").toAbsolutePath();
        assertThat(jar).exists();
        Path file = Files.writeString(dir.resolve("platform.yaml"), Documents.VALID);
        String key = "/lanemq/platform/jar";

        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString(),
                "publish", file.toString(), "--etcd", etcd.endpoint(), "--key", key)
                .redirectErrorStream(true)
                .start();
        String output;
        try (var in = process.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();

        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).contains("at revision");
        assertThat(etcd.get(key)).contains(Documents.VALID);
    }
}
