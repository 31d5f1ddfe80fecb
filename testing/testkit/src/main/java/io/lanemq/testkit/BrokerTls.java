package io.lanemq.testkit;

import java.nio.file.Path;
import java.util.List;

/**
 * TLS on the testkit's servers. RocketMQ reads its TLS settings from system properties once per JVM
 * ({@code TlsSystemConfig}), so they go on the child's command line: enforcing mode (plain TCP refused), the
 * certificate and PKCS#8 key as PEM files, no client certificates, and TLS for the broker's own connections to its
 * name server ({@code tls.enable}). Test mode off: in test mode the server would serve a certificate of its own
 * making instead of the given one.
 */
final class BrokerTls {
    private BrokerTls() {
    }

    static List<String> serverOptions(Path certificatePem, Path privateKeyPem) {
        return List.of(
            "-Dtls.server.mode=enforcing",
            "-Dtls.test.mode.enable=false",
            "-Dtls.server.certPath=" + certificatePem,
            "-Dtls.server.keyPath=" + privateKeyPem,
            "-Dtls.server.need.client.auth=none",
            "-Dtls.enable=true");
    }
}
