package io.lanemq.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for 127.0.0.1, made once per test JVM by the JDK's keytool: a PKCS12 key
 * store the proxy serves with, and the same certificate as PEM, which the SDK's platform configuration
 * names as the proxy's CA ({@code proxy.caCertificate}).
 */
final class TestCertificate {
    static final char[] PASSWORD = "e2e-keystore-pw".toCharArray();
    private static Path keyStore;
    private static Path caPem;

    private TestCertificate() {
    }

    static synchronized Path keyStore() {
        create();
        return keyStore;
    }

    static synchronized Path caPem() {
        create();
        return caPem;
    }

    private static void create() {
        if (keyStore != null) {
            return;
        }
        try {
            Path dir = Files.createTempDirectory("lanemq-e2e-tls");
            Path store = dir.resolve("proxy.p12");
            Path pem = dir.resolve("proxy-ca.pem");
            keytool(List.of("-genkeypair", "-alias", "proxy", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                    "-dname", "CN=lanemq-proxy-e2e", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                    "-storetype", "PKCS12", "-keystore", store.toString(),
                    "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD)));
            keytool(List.of("-exportcert", "-rfc", "-alias", "proxy", "-keystore", store.toString(),
                    "-storepass", new String(PASSWORD), "-file", pem.toString()));
            for (Path file : List.of(store, pem, dir)) {
                file.toFile().deleteOnExit();
            }
            keyStore = store;
            caPem = pem;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run keytool", e);
        }
    }

    private static void keytool(List<String> arguments) throws IOException {
        List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(arguments);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("keytool " + arguments.get(0) + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
