package io.lanemq.api.spi;

import java.util.Map;
import java.util.Objects;

/**
 * How to reach one cluster.
 *
 * @param clusterName       the cluster's name in the platform configuration
 * @param idc               the data centre it lives in
 * @param nameServerAddress the product's discovery address, e.g. {@code 127.0.0.1:9876;127.0.0.2:9876}
 * @param properties        binding-specific tuning (e.g. heartbeat intervals), passed through untouched
 */
public record ClusterEndpoint(String clusterName, String idc, String nameServerAddress, Map<String, String> properties) {
    public ClusterEndpoint {
        Objects.requireNonNull(clusterName, "clusterName");
        Objects.requireNonNull(idc, "idc");
        Objects.requireNonNull(nameServerAddress, "nameServerAddress");
        properties = Map.copyOf(properties);
    }
}
