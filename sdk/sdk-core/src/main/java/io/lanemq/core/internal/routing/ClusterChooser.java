package io.lanemq.core.internal.routing;

import io.lanemq.config.LogicTopicConfig;
import java.util.Optional;
import java.util.Set;

/** Picks the cluster (route) of a logic topic for one send attempt. Thread-safe. */
public interface ClusterChooser extends AutoCloseable {
    /**
     * @param shardingKey when present, the same key gets the same route while that route is
     *                    healthy and the routes are unchanged, so its messages stay in one queue
     * @param excluded    clusters already tried by this send
     * @return a lease on the chosen route, or empty when no route may take the send
     */
    Optional<RouteLease> choose(LogicTopicConfig topic, Optional<String> shardingKey, Set<String> excluded);

    @Override
    void close();
}
