package io.lanemq.config.etcd;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * How an {@link EtcdClient} speaks TLS to etcd: which CA it trusts for etcd's server certificate, and optionally the
 * certificate and key it presents itself (mutual TLS, for an etcd started with {@code --client-cert-auth}). Files
 * are PEM; the key is unencrypted PKCS#8 ({@code BEGIN PRIVATE KEY}), the form etcd's own tools write. Immutable.
 *
 * <pre>{@code
 * EtcdTls tls = EtcdTls.trusting(Path.of("/etc/lanemq/etcd-ca.pem"))
 *         .withClientCertificate(Path.of("/etc/lanemq/etcd-client.pem"), Path.of("/etc/lanemq/etcd-client-key.pem"));
 * }</pre>
 *
 * @param caCertificate     the CA certificate(s) etcd's certificate must chain to; empty: the JVM's trusted CAs
 * @param clientCertificate the certificate presented to etcd; present exactly when {@code clientKey} is
 * @param clientKey         the private key of {@code clientCertificate}
 */
public record EtcdTls(Optional<Path> caCertificate, Optional<Path> clientCertificate, Optional<Path> clientKey) {
    public EtcdTls {
        caCertificate.ifPresent(ca -> requireReadable("CA certificate", ca));
        clientCertificate.ifPresent(cert -> requireReadable("client certificate", cert));
        clientKey.ifPresent(key -> requireReadable("client key", key));
        if (clientCertificate.isPresent() != clientKey.isPresent()) {
            throw new IllegalArgumentException("etcd TLS: a client certificate needs its key and a key its certificate (got "
                    + (clientCertificate.isPresent() ? "a certificate without a key" : "a key without a certificate") + ")");
        }
    }

    /** TLS trusting the JVM's CAs, without a client certificate. */
    public static EtcdTls trustingSystemCas() {
        return new EtcdTls(Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** TLS trusting the CA certificate(s) in {@code caPem} alone, without a client certificate. */
    public static EtcdTls trusting(Path caPem) {
        return new EtcdTls(Optional.of(caPem), Optional.empty(), Optional.empty());
    }

    /** This, presenting {@code certificatePem} (with {@code keyPem}) to etcd. */
    public EtcdTls withClientCertificate(Path certificatePem, Path keyPem) {
        return new EtcdTls(caCertificate, Optional.of(certificatePem), Optional.of(keyPem));
    }

    /** For messages: what is trusted and whether a client certificate is presented (paths only; nothing secret). */
    public String describe() {
        return "TLS trusting " + caCertificate.map(Path::toString).orElse("the JVM's CAs")
                + clientCertificate.map(cert -> ", client certificate " + cert).orElse("");
    }

    private static void requireReadable(String what, Path path) {
        if (!Files.isReadable(path) || Files.isDirectory(path)) {
            throw new IllegalArgumentException("etcd TLS " + what + " " + path + " is not a readable file");
        }
    }
}
