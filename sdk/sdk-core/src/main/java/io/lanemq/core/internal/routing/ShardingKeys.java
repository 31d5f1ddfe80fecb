package io.lanemq.core.internal.routing;

import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.TopicRoute;
import java.util.List;

/**
 * Maps a sharding key onto the weight line of a logic topic, so a key lands on the same route
 * while the routes are unchanged, and keys spread over routes in proportion to their weights.
 */
final class ShardingKeys {
    private ShardingKeys() {
    }

    static TopicRoute routeOf(LogicTopicConfig topic, String shardingKey) {
        int point = Math.floorMod(spread(shardingKey.hashCode()), topic.totalWeight());
        List<TopicRoute> routes = topic.routes();
        for (TopicRoute route : routes) {
            point -= route.weight();
            if (point < 0) {
                return route;
            }
        }
        return routes.get(routes.size() - 1);
    }

    /** Murmur3's finaliser: String.hashCode alone clusters similar keys ("user-1", "user-2"). */
    static int spread(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }
}
