package io.lanemq.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.testkit.etcd.EtcdServer;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** Given a key store, the console serves HTTPS only (its password read from the environment variable named). */
@Execution(ExecutionMode.CONCURRENT) // waits on an etcd and a console of its own: see junit-platform.properties
class ConsoleTlsIT {
    private static final String PASSWORD = "console-it-" + System.nanoTime();

    @Test
    void withAKeyStoreTheConsoleServesHttpsAndNoPlainHttp(@TempDir Path dir) throws Exception {
        Path keyStore = dir.resolve("console.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "console", "-keyalg", "EC", "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1",
                "-validity", "2", "-storetype", "PKCS12", "-keystore", keyStore.toString(), "-storepass", PASSWORD)
                .redirectErrorStream(true).start();
        assertThat(keytool.waitFor(30, TimeUnit.SECONDS) && keytool.exitValue() == 0).as(new String(keytool.getInputStream().readAllBytes())).isTrue();
        try (EtcdServer etcd = EtcdServer.started();
             ConsoleFixture console = ConsoleFixture.startTls(etcd, "/lanemq/platform/console-tls-it", ConsoleApiIT.twoIdcs(),
                     keyStore, "LANEMQ_CONSOLE_IT_KEYSTORE_PASSWORD", PASSWORD)) {
            URI https = URI.create("https://127.0.0.1:" + console.port() + "/login");
            HttpResponse<String> page = HttpClient.newBuilder().sslContext(trusting(keyStore)).build()
                    .send(HttpRequest.newBuilder(https).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("password");

            URI plain = URI.create("http://127.0.0.1:" + console.port() + "/login");
            HttpResponse<String> refused = HttpClient.newHttpClient().send(HttpRequest.newBuilder(plain).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).as("plain HTTP to the TLS port").isEqualTo(400);
        }
    }

    private static SSLContext trusting(Path keyStore) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore)) {
            store.load(in, PASSWORD.toCharArray());
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }
}
