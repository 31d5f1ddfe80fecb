package io.lanemq.testkit.tls;

import io.lanemq.testkit.TestkitException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for {@code 127.0.0.1} / {@code localhost}, for TLS servers in tests and
 * benchmarks: a PKCS12 key store a server serves with ({@link #keyStore()}, {@link #password()}) and
 * the same certificate as PEM ({@link #certificatePem()}), which a client trusts as its only CA; for
 * servers configured with PEM files, the private key as unencrypted PKCS#8 PEM ({@link #privateKeyPem()}).
 *
 * <p>Made once per JVM by the JDK's own {@code keytool}, so no extra library is needed; the files live
 * in a temporary directory deleted when the JVM exits. Thread-safe.
 */
public final class SelfSignedCertificate {
    private static final char[] PASSWORD = "lanemq-test-keystore-pw".toCharArray();
    private static final String ALIAS = "lanemq-test";
    private static SelfSignedCertificate shared;

    private final Path keyStore;
    private final Path certificatePem;
    private final Path privateKeyPem;

    private SelfSignedCertificate(Path keyStore, Path certificatePem, Path privateKeyPem) {
        this.keyStore = keyStore;
        this.certificatePem = certificatePem;
        this.privateKeyPem = privateKeyPem;
    }

    /** The JVM's certificate, made on the first call. */
    public static synchronized SelfSignedCertificate shared() {
        if (shared == null) {
            shared = create("lanemq-test");
        }
        return shared;
    }

    /**
     * A new certificate of its own, for a test that needs a second identity: a client certificate for mutual TLS,
     * or a CA that did not sign the server's certificate. Also valid for {@code 127.0.0.1} / {@code localhost}.
     *
     * @param commonName the subject's CN (etcd, for one, takes a client certificate's CN as its user name)
     */
    public static SelfSignedCertificate create(String commonName) {
        if (commonName == null || !commonName.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("commonName must be letters, digits, '.', '_' or '-', was " + commonName);
        }
        return make(commonName);
    }

    /** The PKCS12 key store holding the private key and the certificate. */
    public Path keyStore() {
        return keyStore;
    }

    /** The password of {@link #keyStore()} and of its key; a fresh copy the caller may clear. */
    public char[] password() {
        return PASSWORD.clone();
    }

    /** The certificate alone, PEM-encoded: what a client names as the server's CA. */
    public Path certificatePem() {
        return certificatePem;
    }

    /** The private key alone, unencrypted PKCS#8 PEM ({@code BEGIN PRIVATE KEY}): with {@link #certificatePem()}, a server's identity. */
    public Path privateKeyPem() {
        return privateKeyPem;
    }

    private static SelfSignedCertificate make(String commonName) {
        try {
            Path dir = Files.createTempDirectory("lanemq-tls");
            Path store = dir.resolve("server.p12");
            Path pem = dir.resolve("server-ca.pem");
            Path key = dir.resolve("server-key.pem");
            // Registered before the files exist: deleteOnExit runs in reverse order, files first, then the directory.
            for (Path file : List.of(dir, store, pem, key)) {
                file.toFile().deleteOnExit();
            }
            String password = new String(PASSWORD);
            keytool("-genkeypair", "-alias", ALIAS, "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                    "-dname", "CN=" + commonName, "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                    "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", password, "-keypass", password);
            keytool("-exportcert", "-rfc", "-alias", ALIAS, "-keystore", store.toString(), "-storepass", password,
                    "-file", pem.toString());
            writePrivateKeyPem(store, key);
            return new SelfSignedCertificate(store, pem, key);
        } catch (IOException e) {
            throw new TestkitException("cannot make a self-signed certificate with keytool", e);
        }
    }

    /** keytool cannot export a private key; the key store's key is already PKCS#8 encoded, so PEM is base64 around it. */
    private static void writePrivateKeyPem(Path store, Path pem) throws IOException {
        try (InputStream in = Files.newInputStream(store)) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(in, PASSWORD);
            byte[] pkcs8 = keys.getKey(ALIAS, PASSWORD).getEncoded();
            String base64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(pkcs8);
            Files.writeString(pem, "-----BEGIN PRIVATE KEY-----\n" + base64 + "\n-----END PRIVATE KEY-----\n",
                    StandardCharsets.US_ASCII);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot read the private key back from " + store, e);
        }
    }

    private static void keytool(String... arguments) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new TestkitException("keytool " + arguments[0] + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestkitException("interrupted while waiting for keytool " + arguments[0], e);
        }
    }
}
