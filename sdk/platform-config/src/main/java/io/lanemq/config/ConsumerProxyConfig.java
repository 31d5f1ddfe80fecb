package io.lanemq.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where consumer groups in PROXY mode reach the consumer proxy. TLS is mandatory: the SDK sends
 * the application's token on every call, so it never talks to a proxy in clear text; the proxy's
 * certificate must chain to {@code caCertificate}.
 *
 * @param endpoints     the proxy instances as {@code host:port}, tried in turn on reconnect
 * @param caCertificate a PEM file with the CA certificate(s) the proxy's certificate is checked
 *                      against; empty only while no group uses PROXY mode
 */
public record ConsumerProxyConfig(List<String> endpoints, Optional<Path> caCertificate) {
    /** No proxy: every group must consume DIRECT. */
    public static final ConsumerProxyConfig NONE = new ConsumerProxyConfig(List.of(), Optional.empty());

    public ConsumerProxyConfig {
        endpoints = List.copyOf(endpoints);
    }

    public ConsumerProxyConfig(List<String> endpoints, Path caCertificate) {
        this(endpoints, Optional.of(caCertificate));
    }

    public boolean configured() {
        return !endpoints.isEmpty();
    }
}
