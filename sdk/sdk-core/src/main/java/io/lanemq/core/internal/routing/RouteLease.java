package io.lanemq.core.internal.routing;

import io.lanemq.config.TopicRoute;

/**
 * One send attempt's use of a route. Exactly one outcome is reported; it moves the cluster's
 * weight for the following sends. Thread-safe (async sends complete it from callback threads).
 */
public interface RouteLease {
    TopicRoute route();

    /** The broker acknowledged the message after {@code latencyNanos}. */
    void succeeded(long latencyNanos);

    /** The cluster failed to take the message. */
    void failed();

    /** The outcome says nothing about the cluster's health (the message itself was refused). */
    void ignored();
}
