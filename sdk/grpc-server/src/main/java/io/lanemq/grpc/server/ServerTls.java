package io.lanemq.grpc.server;

import io.grpc.ServerCredentials;
import io.grpc.TlsServerCredentials;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Objects;
import javax.net.ssl.KeyManagerFactory;

/**
 * The identity a LaneMQ gRPC server presents: a PEM certificate chain with its PKCS#8 key, or a PKCS#12 key store.
 * Both formats are read here, the same way for every server, and a file that cannot be used is refused at start
 * with an error naming the file and the format expected.
 *
 * <pre>{@code
 * ServerCredentials credentials = ServerTls.pem(Path.of("server.crt"), Path.of("server.key")).credentials();
 * }</pre>
 *
 * <p>Immutable (the password is copied in and out).
 */
public final class ServerTls {
    private final Path certificateChain;
    private final Path privateKey;
    private final Path keyStore;
    private final char[] password;

    private ServerTls(Path certificateChain, Path privateKey, Path keyStore, char[] password) {
        this.certificateChain = certificateChain;
        this.privateKey = privateKey;
        this.keyStore = keyStore;
        this.password = password;
    }

    /** A PEM certificate chain, leaf first, and the leaf's PEM PKCS#8 private key. */
    public static ServerTls pem(Path certificateChain, Path privateKey) {
        return new ServerTls(Objects.requireNonNull(certificateChain, "certificateChain"),
                Objects.requireNonNull(privateKey, "privateKey"), null, null);
    }

    /** A PKCS#12 key store holding the key and its chain, opened with {@code password}. */
    public static ServerTls pkcs12(Path keyStore, char[] password) {
        return new ServerTls(null, null, Objects.requireNonNull(keyStore, "keyStore"),
                Objects.requireNonNull(password, "password").clone());
    }

    /**
     * Reads the files into gRPC server credentials.
     *
     * @throws IOException when a file cannot be read or does not hold a usable key and chain; the message names the
     *                     file and the format expected
     */
    public ServerCredentials credentials() throws IOException {
        if (keyStore == null) {
            try {
                return TlsServerCredentials.create(certificateChain.toFile(), privateKey.toFile());
            } catch (IOException | RuntimeException e) {
                throw new IOException("cannot use the TLS certificate chain " + certificateChain + " and private key "
                        + privateKey + " (PEM, the key PKCS#8): " + e.getMessage(), e);
            }
        }
        char[] secret = password.clone();
        try (InputStream in = Files.newInputStream(keyStore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, secret);
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, secret);
            return TlsServerCredentials.newBuilder().keyManager(keys.getKeyManagers()).build();
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            throw new IOException("cannot use the TLS key store " + keyStore + " (PKCS#12): " + e.getMessage(), e);
        }
    }

    /** The files, for log lines (never the password). */
    @Override
    public String toString() {
        return keyStore == null ? "PEM " + certificateChain + " + " + privateKey : "PKCS#12 " + keyStore;
    }
}
