package io.lanemq.api.spi;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How to reach one cluster.
 *
 * @param clusterName       the cluster's name in the platform configuration
 * @param idc               the data centre it lives in
 * @param nameServerAddress the product's discovery address, e.g. {@code 127.0.0.1:9876;127.0.0.2:9876}
 * @param properties        binding-specific tuning (e.g. heartbeat intervals), passed through untouched
 * @param credentials       where the cluster's access key and secret key live, when its brokers require them
 * @param tls               whether connections to the cluster use TLS
 */
public record ClusterEndpoint(String clusterName, String idc, String nameServerAddress, Map<String, String> properties,
                              Optional<ClusterCredentials> credentials, boolean tls) {
    public ClusterEndpoint {
        Objects.requireNonNull(clusterName, "clusterName");
        Objects.requireNonNull(idc, "idc");
        Objects.requireNonNull(nameServerAddress, "nameServerAddress");
        properties = Map.copyOf(properties);
        Objects.requireNonNull(credentials, "credentials");
    }

    /** An open cluster: no credentials, no TLS. */
    public ClusterEndpoint(String clusterName, String idc, String nameServerAddress, Map<String, String> properties) {
        this(clusterName, idc, nameServerAddress, properties, Optional.empty(), false);
    }

    /** This endpoint with {@code credentials} and {@code tls}. */
    public ClusterEndpoint secured(Optional<ClusterCredentials> credentials, boolean tls) {
        return new ClusterEndpoint(clusterName, idc, nameServerAddress, properties, credentials, tls);
    }
}
