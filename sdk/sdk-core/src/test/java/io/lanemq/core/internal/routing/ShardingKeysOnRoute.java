package io.lanemq.core.internal.routing;

import io.lanemq.config.LogicTopicConfig;

/**
 * A sharding key whose sticky route is a given cluster: a test's way to make a send try that cluster first while every
 * cluster has weight (a weight-0 cluster takes no sends, so it cannot stand in for "the other one").
 */
public final class ShardingKeysOnRoute {
    private ShardingKeysOnRoute() {
    }

    public static String keyRoutedTo(LogicTopicConfig topic, String cluster) {
        for (int i = 0; i < 10_000; i++) {
            String key = "key-" + i;
            if (ShardingKeys.routeOf(topic, key).cluster().equals(cluster)) {
                return key;
            }
        }
        throw new IllegalArgumentException("no key routes to " + cluster + " on " + topic.routes());
    }
}
