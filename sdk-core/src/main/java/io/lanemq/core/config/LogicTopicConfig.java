package io.lanemq.core.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A logic topic: its routes (one per cluster, so per IDC), the consumer groups allowed on it
 * (settings already merged with the platform defaults), and the most sends per second all
 * producers of one client may make to it (0: unlimited).
 */
public record LogicTopicConfig(String name, List<TopicRoute> routes, Map<String, ConsumerSettings> consumerGroups,
                               int rateLimitPerSecond) {
    public LogicTopicConfig {
        routes = List.copyOf(routes);
        consumerGroups = Map.copyOf(consumerGroups);
    }

    /** Without a rate limit. */
    public LogicTopicConfig(String name, List<TopicRoute> routes, Map<String, ConsumerSettings> consumerGroups) {
        this(name, routes, consumerGroups, 0);
    }

    public LogicTopicConfig withRateLimit(int perSecond) {
        return new LogicTopicConfig(name, routes, consumerGroups, perSecond);
    }

    public Optional<TopicRoute> route(String cluster) {
        return routes.stream().filter(r -> r.cluster().equals(cluster)).findFirst();
    }

    public int totalWeight() {
        return routes.stream().mapToInt(TopicRoute::weight).sum();
    }
}
