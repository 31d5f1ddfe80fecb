package io.lanemq.core.routing;

import io.lanemq.core.config.LogicTopicConfig;
import io.lanemq.core.config.TopicRoute;
import java.util.Optional;

/** Picks the cluster (route) of a logic topic for one send. Thread-safe. */
public interface ClusterChooser {
    /**
     * @param shardingKey when present, the same key must get the same route while the topic's
     *                    routes are unchanged, so its messages stay in one queue and in order
     * @return the route, or empty when no route may take sends
     */
    Optional<TopicRoute> choose(LogicTopicConfig topic, Optional<String> shardingKey);
}
