package io.lanemq.config;

import java.util.Objects;
import java.util.Optional;

/**
 * Where a logic topic lives on one cluster, and the share of sends that cluster gets.
 * A weight of 0 keeps the cluster subscribed by consumers but sends nothing to it.
 *
 * @param shadowTopic where this route's stress-test traffic goes instead of the platform's
 *                    {@code <physicalTopic><shadowSuffix>} (see {@link StressTestConfig}); used only
 *                    when the logic topic takes stress-test traffic
 */
public record TopicRoute(String cluster, String physicalTopic, int weight, Optional<String> shadowTopic) {
    public TopicRoute {
        Objects.requireNonNull(shadowTopic, "shadowTopic (Optional.empty() for the platform's suffix)");
    }

    /** With the platform's shadow suffix for stress-test traffic. */
    public TopicRoute(String cluster, String physicalTopic, int weight) {
        this(cluster, physicalTopic, weight, Optional.empty());
    }
}
