package io.lanemq.config;

import static io.lanemq.config.ConfigDocuments.weightOfA;
import static io.lanemq.config.ConfigDocuments.weights;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.config.etcd.EtcdClient;
import io.lanemq.config.etcd.EtcdCredentials;
import io.lanemq.config.etcd.EtcdException;
import io.lanemq.config.etcd.EtcdSecurity;
import io.lanemq.config.etcd.EtcdTls;
import io.lanemq.testkit.etcd.EtcdServer;
import io.lanemq.testkit.tls.SelfSignedCertificate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The etcd source against real etcd secured as in production: one etcd serving TLS and requiring client
 * certificates (mutual TLS), one serving TLS with etcd's user authentication enabled.
 */
class EtcdSecurityIT {
    private static final Duration PICKUP = Duration.ofSeconds(2);
    /** Reconnect backoff cap (2 s) plus a restart and a margin. */
    private static final Duration RECONNECT = Duration.ofSeconds(8);
    private static final String PASSWORD = "s3cret-for-sdk";

    private static SelfSignedCertificate server;
    private static SelfSignedCertificate client;
    private static EtcdServer mutualTls;
    private static EtcdServer withUsers;

    @TempDir
    static Path dir;

    private final RecordingListener listener = new RecordingListener();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @BeforeAll
    static void startEtcd() {
        server = SelfSignedCertificate.shared();
        client = SelfSignedCertificate.create("lanemq-sdk-client");
        mutualTls = EtcdServer.builder().tls(server).clientCertificateAuth(client).started();
        withUsers = EtcdServer.builder().tls(server).authentication("root-pw").started();
        withUsers.addUser("sdk", PASSWORD, "/lanemq/");
    }

    @AfterAll
    static void stopEtcd() {
        for (EtcdServer etcd : new EtcdServer[] {mutualTls, withUsers}) {
            if (etcd != null) {
                etcd.close();
            }
        }
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : closeables) {
            closeable.close();
        }
    }

    private EtcdConfigSource open(String location) throws InvalidConfigurationException {
        EtcdConfigSource source = (EtcdConfigSource) ConfigSources.open(location);
        closeables.add(source);
        return source;
    }

    private static String mutualTlsLocation(String key) {
        return "etcd://" + mutualTls.endpoint() + key + "?cacert=" + server.certificatePem() + "&cert=" + client.certificatePem()
                + "&certKey=" + client.privateKeyPem();
    }

    private static String userLocation(String key, Path passwordFile) {
        return "etcd://" + withUsers.endpoint() + key + "?cacert=" + server.certificatePem() + "&user=sdk&passwordFile=" + passwordFile;
    }

    @Test
    void overMutualTlsTheSourceLoadsAndDeliversEachPublishedChange() throws Exception {
        String key = "/lanemq/platform/mtls";
        mutualTls.put(key, weights(50, 50));
        EtcdConfigSource source = open(mutualTlsLocation(key));

        assertThat(weightOfA(source.load())).isEqualTo(50);
        source.watch(listener);
        await().atMost(PICKUP).until(source::isConnected);
        mutualTls.put(key, weights(80, 20));

        await().atMost(PICKUP).until(() -> listener.count() == 1);
        assertThat(weightOfA(listener.last().change())).as("the change pushed over TLS").isEqualTo(80);
    }

    @Test
    void withoutAClientCertificateEtcdRefusesTheConnection() throws Exception {
        String key = "/lanemq/platform/mtls-no-cert";
        mutualTls.put(key, weights(50, 50));
        EtcdConfigSource source = open("etcd://" + mutualTls.endpoint() + key + "?cacert=" + server.certificatePem());

        assertThatThrownBy(source::load)
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("cannot read platform configuration etcd://" + mutualTls.endpoint() + key)
                .hasMessageContaining("the TLS handshake failed: etcd refused the client certificate or its absence");
    }

    @Test
    void aCaThatDidNotSignEtcdsCertificateFailsNamingTheHandshake() throws Exception {
        SelfSignedCertificate stranger = SelfSignedCertificate.create("someone-else");
        String key = "/lanemq/platform/wrong-ca";
        EtcdConfigSource source = open("etcd://" + mutualTls.endpoint() + key + "?cacert=" + stranger.certificatePem()
                + "&cert=" + client.certificatePem() + "&certKey=" + client.privateKeyPem());

        assertThatThrownBy(source::load)
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("TLS trusting " + stranger.certificatePem())
                .hasMessageContaining("the TLS handshake failed: check that the CA certificate is the one that signed etcd's certificate");
    }

    @Test
    void aUserWithAPasswordFileReadsAndWatchesAndKeepsWatchingAfterEtcdRestartsAndForgetsItsToken() throws Exception {
        String key = "/lanemq/platform/user";
        withUsers.put(key, weights(50, 50));
        Path passwordFile = Files.writeString(dir.resolve("etcd-password"), PASSWORD + "\n");
        EtcdConfigSource source = open(userLocation(key, passwordFile));

        assertThat(weightOfA(source.load())).isEqualTo(50);
        source.watch(listener);
        await().atMost(PICKUP).until(source::isConnected);
        withUsers.put(key, weights(60, 40));
        await().atMost(PICKUP).until(() -> listener.count() == 1);

        // etcd keeps its simple tokens in memory: after a restart the client's token is unknown and is refused.
        withUsers.stop();
        withUsers.start();
        withUsers.put(key, weights(70, 30));

        await().atMost(RECONNECT).until(() -> listener.count() == 2);
        assertThat(weightOfA(listener.last().change())).as("delivered through a watch opened with a new token").isEqualTo(70);
        assertThat(weightOfA(source.load())).as("a read after the restart authenticates again").isEqualTo(70);
    }

    @Test
    void aWrongPasswordIsRefusedNamingTheUserAndNeverThePassword() throws Exception {
        Path passwordFile = Files.writeString(dir.resolve("wrong-password"), "not-" + PASSWORD);
        EtcdConfigSource source = open(userLocation("/lanemq/platform/user", passwordFile));

        assertThatThrownBy(source::load)
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("refused user 'sdk'")
                .hasMessageContaining("invalid user ID or password")
                .hasMessageNotContaining("not-" + PASSWORD);
    }

    @Test
    void withoutAUserEtcdWithAuthenticationSaysOneIsNeeded() throws Exception {
        EtcdConfigSource source = open("etcd://" + withUsers.endpoint() + "/lanemq/platform/user?cacert=" + server.certificatePem());

        assertThatThrownBy(source::load)
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("etcd has authentication enabled: configure an etcd user");
    }

    @Test
    void aUserOutsideItsKeyPrefixIsDeniedAndThePasswordCanComeFromTheEnvironment() throws Exception {
        EtcdSecurity security = new EtcdSecurity(Optional.of(EtcdTls.trusting(server.certificatePem())),
                Optional.of(EtcdCredentials.passwordEnv("sdk", "ETCD_PW", name -> name.equals("ETCD_PW") ? PASSWORD : null)));
        try (EtcdClient etcd = EtcdClient.builder(withUsers.endpoint()).security(security).build()) {
            etcd.put("/lanemq/platform/env", "a: 1");
            assertThat(etcd.get("/lanemq/platform/env")).get().extracting(e -> e.value()).isEqualTo("a: 1");

            assertThatThrownBy(() -> etcd.put("/elsewhere", "b: 2"))
                    .isInstanceOf(EtcdException.class)
                    .hasMessageContaining("PERMISSION_DENIED");
        }
    }
}
