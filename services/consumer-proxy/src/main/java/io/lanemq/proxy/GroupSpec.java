package io.lanemq.proxy;

import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.StartPosition;
import io.lanemq.config.TopicRoute;
import java.util.List;
import java.util.Optional;

/**
 * What a running group was built from, and nothing else: the clusters and physical topics it
 * consumes and the settings the proxy uses. Two snapshots that give equal specs need no restart of
 * the group (a change of send weights or listener threads, for example, does not concern the proxy).
 */
record GroupSpec(List<Route> routes, int maxDeliveryAttempts, StartPosition startPosition, int batchSize, int maxInFlight,
                 int maxPerSecond) {
    /** @param shadowTopic where the route's stress-test traffic lives; {@code null} when the topic takes none */
    record Route(ClusterConfig cluster, String physicalTopic, String shadowTopic) {
    }

    /** Empty when the snapshot has no such logic topic or no such group on it. */
    static Optional<GroupSpec> of(PlatformConfig platform, GroupKey key) {
        Optional<LogicTopicConfig> topic = platform.topic(key.logicTopic());
        ConsumerConfig settings = topic.map(t -> t.consumerGroups().get(key.consumerGroup())).orElse(null);
        if (settings == null) {
            return Optional.empty();
        }
        List<Route> routes = topic.get().routes().stream()
                .map((TopicRoute route) -> new Route(platform.cluster(route.cluster()), route.physicalTopic(),
                        topic.get().stressTest() ? platform.shadowTopic(route) : null))
                .toList();
        return Optional.of(new GroupSpec(routes, settings.maxDeliveryAttempts(), settings.startPosition(), settings.batchSize(),
                settings.maxInFlight(), settings.maxPerSecond()));
    }
}
