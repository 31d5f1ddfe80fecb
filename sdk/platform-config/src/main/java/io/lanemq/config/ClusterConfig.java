package io.lanemq.config;

import io.lanemq.api.spi.ClusterEndpoint;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One cluster: the IDC it lives in and how to reach it.
 *
 * @param properties  binding-specific tuning passed to the binding untouched (e.g. heartbeat intervals)
 * @param credentials where its access key and secret key live (environment variables or a file), when its brokers
 *                    require them: a reference only, the configuration never holds a secret ({@link CredentialsRef})
 * @param tls         whether clients connect to it over TLS
 */
public record ClusterConfig(String name, String idc, String nameServer, Map<String, String> properties,
                            Optional<CredentialsRef> credentials, boolean tls) {
    public ClusterConfig {
        properties = Map.copyOf(properties);
        Objects.requireNonNull(credentials, "credentials");
    }

    /** An open cluster: no credentials, no TLS. */
    public ClusterConfig(String name, String idc, String nameServer, Map<String, String> properties) {
        this(name, idc, nameServer, properties, Optional.empty(), false);
    }

    /** What a binding needs to reach this cluster; valid only once the validator accepted this cluster. */
    public ClusterEndpoint endpoint() {
        return new ClusterEndpoint(name, idc, nameServer, properties, credentials.map(CredentialsRef::toCredentials), tls);
    }
}
