package io.lanemq.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A logic topic: its routes (one per cluster, so per IDC), the consumer groups allowed on it
 * (settings already merged with the platform defaults), the most sends per second all
 * producers of one client may make to it (0: unlimited), and whether it takes stress-test traffic,
 * which then goes to each route's shadow topic ({@link StressTestConfig}); a topic that does not
 * refuses stress-test sends, so they never reach a production topic; and its own batch gathering, when it
 * differs from the producer's ({@link ProducerConfig#batch()}).
 */
public record LogicTopicConfig(String name, List<TopicRoute> routes, Map<String, ConsumerConfig> consumerGroups,
                               int rateLimitPerSecond, boolean stressTest, Optional<BatchConfig> batch) {
    public LogicTopicConfig {
        routes = List.copyOf(routes);
        consumerGroups = Map.copyOf(consumerGroups);
        batch = batch == null ? Optional.empty() : batch;
    }

    /** Gathering as the producer's settings say. */
    public LogicTopicConfig(String name, List<TopicRoute> routes, Map<String, ConsumerConfig> consumerGroups,
                            int rateLimitPerSecond, boolean stressTest) {
        this(name, routes, consumerGroups, rateLimitPerSecond, stressTest, Optional.empty());
    }

    /** Taking no stress-test traffic. */
    public LogicTopicConfig(String name, List<TopicRoute> routes, Map<String, ConsumerConfig> consumerGroups,
                            int rateLimitPerSecond) {
        this(name, routes, consumerGroups, rateLimitPerSecond, false);
    }

    /** Without a rate limit, taking no stress-test traffic. */
    public LogicTopicConfig(String name, List<TopicRoute> routes, Map<String, ConsumerConfig> consumerGroups) {
        this(name, routes, consumerGroups, 0);
    }

    public LogicTopicConfig withRateLimit(int perSecond) {
        return new LogicTopicConfig(name, routes, consumerGroups, perSecond, stressTest, batch);
    }

    public LogicTopicConfig withStressTest(boolean takesStressTest) {
        return new LogicTopicConfig(name, routes, consumerGroups, rateLimitPerSecond, takesStressTest, batch);
    }

    public LogicTopicConfig withBatch(BatchConfig gathering) {
        return new LogicTopicConfig(name, routes, consumerGroups, rateLimitPerSecond, stressTest, Optional.of(gathering));
    }

    /** This topic's gathering: its own, or else the producer's. */
    public BatchConfig batchOr(ProducerConfig producer) {
        return batch.orElse(producer.batch());
    }

    public Optional<TopicRoute> route(String cluster) {
        return routes.stream().filter(r -> r.cluster().equals(cluster)).findFirst();
    }

    public int totalWeight() {
        return routes.stream().mapToInt(TopicRoute::weight).sum();
    }
}
