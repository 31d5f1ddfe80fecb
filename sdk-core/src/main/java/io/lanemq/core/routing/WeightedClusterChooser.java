package io.lanemq.core.routing;

import io.lanemq.core.config.LogicTopicConfig;
import io.lanemq.core.config.TopicRoute;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntUnaryOperator;

/**
 * Static weighted choice: each route gets {@code weight / totalWeight} of the sends. A sharding key
 * is hashed onto the same weight line instead of a random point, so a key sticks to one route.
 */
public final class WeightedClusterChooser implements ClusterChooser {
    private final IntUnaryOperator randomBelow;

    /** Uses {@link ThreadLocalRandom}: no contention between sending threads. */
    public WeightedClusterChooser() {
        this(bound -> ThreadLocalRandom.current().nextInt(bound));
    }

    /** @param randomBelow returns a value in {@code [0, bound)}; tests pass a deterministic one */
    public WeightedClusterChooser(IntUnaryOperator randomBelow) {
        this.randomBelow = randomBelow;
    }

    @Override
    public Optional<TopicRoute> choose(LogicTopicConfig topic, Optional<String> shardingKey) {
        int total = topic.totalWeight();
        if (total <= 0) {
            return Optional.empty();
        }
        int point = shardingKey.map(key -> Math.floorMod(spread(key.hashCode()), total))
                .orElseGet(() -> randomBelow.applyAsInt(total));
        List<TopicRoute> routes = topic.routes();
        for (TopicRoute route : routes) {
            point -= route.weight();
            if (point < 0) {
                return Optional.of(route);
            }
        }
        return Optional.of(routes.get(routes.size() - 1));
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
