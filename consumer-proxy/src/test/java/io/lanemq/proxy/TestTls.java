package io.lanemq.proxy;

import io.grpc.ChannelCredentials;
import io.grpc.TlsChannelCredentials;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed certificate for 127.0.0.1 made by the JDK's keytool (no extra library), in a
 * PKCS12 key store the proxy serves with and test clients trust. One per test JVM.
 */
final class TestTls {
    static final char[] PASSWORD = "test-keystore-pw".toCharArray();
    private static Path keyStore;

    private TestTls() {
    }

    static synchronized Path keyStore() {
        if (keyStore == null) {
            try {
                Path dir = Files.createTempDirectory("lanemq-proxy-tls");
                Path file = dir.resolve("proxy.p12");
                Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                        "-genkeypair", "-alias", "proxy", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                        "-dname", "CN=lanemq-proxy-test", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                        "-storetype", "PKCS12", "-keystore", file.toString(),
                        "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD))
                        .redirectErrorStream(true).start();
                String output = new String(keytool.getInputStream().readAllBytes());
                if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
                    throw new IllegalStateException("keytool failed: " + output);
                }
                file.toFile().deleteOnExit();
                dir.toFile().deleteOnExit();
                keyStore = file;
            } catch (IOException e) {
                throw new IllegalStateException("cannot run keytool", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return keyStore;
    }

    /** Client credentials trusting only the test certificate. */
    static ChannelCredentials clientCredentials() {
        try (InputStream in = Files.newInputStream(keyStore())) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, PASSWORD);
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            return TlsChannelCredentials.newBuilder().trustManager(trust.getTrustManagers()).build();
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the test key store", e);
        }
    }
}
