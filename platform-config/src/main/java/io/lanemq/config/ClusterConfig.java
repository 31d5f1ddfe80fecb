package io.lanemq.config;

import io.lanemq.api.spi.ClusterEndpoint;
import java.util.Map;

/**
 * One cluster: the IDC it lives in and how to reach it.
 *
 * @param properties binding-specific tuning passed to the binding untouched (e.g. heartbeat intervals)
 */
public record ClusterConfig(String name, String idc, String nameServer, Map<String, String> properties) {
    public ClusterConfig {
        properties = Map.copyOf(properties);
    }

    /** What a binding needs to reach this cluster. */
    public ClusterEndpoint endpoint() {
        return new ClusterEndpoint(name, idc, nameServer, properties);
    }
}
