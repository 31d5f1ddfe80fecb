package io.lanemq.core.config;

/**
 * Where a logic topic lives on one cluster, and the share of sends that cluster gets.
 * A weight of 0 keeps the cluster subscribed by consumers but sends nothing to it.
 */
public record TopicRoute(String cluster, String physicalTopic, int weight) {
}
