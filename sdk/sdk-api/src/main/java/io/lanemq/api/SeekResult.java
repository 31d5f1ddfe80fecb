package io.lanemq.api;

import java.util.List;
import java.util.Optional;

/**
 * What {@link MessagingClient#seek} did on each cluster of the logic topic. Immutable.
 *
 * @param clusters one entry per cluster of the topic, in the configuration's route order
 */
public record SeekResult(String logicTopic, String consumerGroup, List<Cluster> clusters) {
    public SeekResult {
        clusters = List.copyOf(clusters);
    }

    /** True when every cluster's offsets were reset. */
    public boolean complete() {
        return clusters.stream().allMatch(cluster -> cluster.failure().isEmpty());
    }

    /**
     * One cluster's outcome.
     *
     * @param queues       queues whose offset was set (0 on a failure)
     * @param membersTold  true when the brokers listed live members of the group and told them to move (RocketMQ
     *                     members drop what they fetched, wait about 10 s, then consume from the new offsets); false
     *                     when they listed none. The new offsets are written as the group's committed offsets either
     *                     way, for a member that closed just before and for the next one to start
     * @param failure      why the cluster was not reset; empty on success
     */
    public record Cluster(String cluster, String physicalTopic, int queues, boolean membersTold, Optional<String> failure) {
    }
}
