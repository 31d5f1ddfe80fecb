package io.lanemq.core.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A logic topic: its routes (one per cluster, so per IDC) and the consumer groups allowed on it,
 * each with its settings already merged with the platform defaults.
 */
public record LogicTopicConfig(String name, List<TopicRoute> routes, Map<String, ConsumerSettings> consumerGroups) {
    public LogicTopicConfig {
        routes = List.copyOf(routes);
        consumerGroups = Map.copyOf(consumerGroups);
    }

    public Optional<TopicRoute> route(String cluster) {
        return routes.stream().filter(r -> r.cluster().equals(cluster)).findFirst();
    }

    public int totalWeight() {
        return routes.stream().mapToInt(TopicRoute::weight).sum();
    }
}
