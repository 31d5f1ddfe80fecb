package io.lanemq.configtool;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.testkit.etcd.EtcdServer;
import io.lanemq.testkit.tls.SelfSignedCertificate;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** publish and show against an etcd that serves TLS only and has users, as operators' etcd does. */
class SecureEtcdIT {
    private static final String PASSWORD = "ops-password-1";
    private static EtcdServer etcd;
    private static String ca;

    @TempDir
    Path dir;

    @BeforeAll
    static void startEtcd() {
        SelfSignedCertificate server = SelfSignedCertificate.shared();
        ca = server.certificatePem().toString();
        etcd = EtcdServer.builder().tls(server).authentication("root-password").started();
        etcd.addUser("ops", PASSWORD, "/lanemq/");
    }

    @AfterAll
    static void stopEtcd() {
        if (etcd != null) {
            etcd.close();
        }
    }

    @Test
    void publishAndShowOverTlsAsAUserWhosePasswordIsInAFile() throws Exception {
        Path file = Files.writeString(dir.resolve("platform.yaml"), Documents.VALID);
        Path password = Files.writeString(dir.resolve("etcd-password"), PASSWORD + "\n");
        String key = "/lanemq/platform/secure";

        ToolRun publish = ToolRun.of("publish", file.toString(), "--etcd", etcd.endpoint(), "--key", key,
                "--cacert", ca, "--user", "ops", "--password-file", password.toString());

        assertThat(publish.exitCode()).as(publish.err()).isZero();
        assertThat(publish.out()).containsPattern("published .* to etcd key " + key + " on \\[" + etcd.endpoint() + "\\] at revision \\d+");
        assertThat(etcd.get(key)).contains(Documents.VALID);

        ToolRun show = ToolRun.of("show", "--etcd", etcd.endpoint(), "--key", key,
                "--cacert", ca, "--user", "ops", "--password-file", password.toString());
        assertThat(show.exitCode()).as(show.err()).isZero();
        assertThat(show.out()).isEqualTo(Documents.VALID);
    }

    @Test
    void aWrongPasswordExitsThreeNamingTheUserNotThePassword() throws Exception {
        Path password = Files.writeString(dir.resolve("etcd-password"), "guess-" + PASSWORD);

        ToolRun show = ToolRun.of("show", "--etcd", etcd.endpoint(), "--key", "/lanemq/platform/secure",
                "--cacert", ca, "--user", "ops", "--password-file", password.toString());

        assertThat(show.exitCode()).isEqualTo(3);
        assertThat(show.err()).contains("refused user 'ops'", "invalid user ID or password").doesNotContain("guess-");
    }

    @Test
    void plaintextToThisEtcdFailsAndSaysTlsMayBeExpected() {
        ToolRun show = ToolRun.of("show", "--etcd", etcd.endpoint(), "--key", "/lanemq/platform/secure", "--timeout", "2");

        assertThat(show.exitCode()).isEqualTo(3);
        assertThat(show.err()).contains(etcd.endpoint(), "UNAVAILABLE");
    }

    @Test
    void misusedSecurityOptionsAreUsageErrorsNamingTheOption() {
        ToolRun halfCertificate = ToolRun.of("show", "--etcd", etcd.endpoint(), "--key", "/k", "--cacert", ca, "--cert", ca);
        assertThat(halfCertificate.exitCode()).isEqualTo(2);
        assertThat(halfCertificate.err()).contains("--cert needs --cert-key");

        ToolRun plaintextRemote = ToolRun.of("show", "--etcd", "etcd-1.example:2379", "--key", "/k");
        assertThat(plaintextRemote.exitCode()).isEqualTo(2);
        assertThat(plaintextRemote.err()).contains("etcd endpoint 'etcd-1.example:2379' is not a loopback address and TLS is not configured");

        ToolRun noPasswordSource = ToolRun.of("show", "--etcd", etcd.endpoint(), "--key", "/k", "--cacert", ca, "--user", "ops");
        assertThat(noPasswordSource.exitCode()).isEqualTo(2);
        assertThat(noPasswordSource.err()).contains("--user needs exactly one of --password-file or --password-env");
    }
}
