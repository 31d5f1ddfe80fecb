package io.lanemq.rocketmq;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.spi.ClusterEndpoint;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.apache.rocketmq.client.ClientConfig;

/**
 * The RocketMQ tuning an endpoint's properties carry, parsed once per producer or consumer.
 * Every {@code rocketmq.*} key must be one of {@link RocketMqBinding}'s documented properties, so a
 * misspelt key fails at creation instead of being silently ignored; other keys belong to other
 * bindings and are left alone.
 */
record EndpointTuning(OptionalInt heartbeatBrokerIntervalMs, OptionalInt pollNameServerIntervalMs,
                        OptionalInt persistConsumerOffsetIntervalMs, int retriesWithinCluster,
                        OptionalInt pullBatchSize, int shutdownAwaitMs) {

    static final String PREFIX = "rocketmq.";
    static final String HEARTBEAT_BROKER_INTERVAL_MS = PREFIX + "heartbeatBrokerIntervalMs";
    static final String POLL_NAME_SERVER_INTERVAL_MS = PREFIX + "pollNameServerIntervalMs";
    static final String PERSIST_CONSUMER_OFFSET_INTERVAL_MS = PREFIX + "persistConsumerOffsetIntervalMs";
    static final String RETRIES_WITHIN_CLUSTER = PREFIX + "retriesWithinCluster";
    static final String PULL_BATCH_SIZE = PREFIX + "pullBatchSize";
    static final String SHUTDOWN_AWAIT_MS = PREFIX + "shutdownAwaitMs";

    static final int DEFAULT_RETRIES_WITHIN_CLUSTER = 1;
    static final int DEFAULT_SHUTDOWN_AWAIT_MS = 10_000;
    /** RocketMQ's own bound: {@code DefaultMQPushConsumerImpl.checkConfig} refuses more. */
    static final int MAX_PULL_BATCH_SIZE = 1024;

    private static final Set<String> KNOWN = Set.of(HEARTBEAT_BROKER_INTERVAL_MS, POLL_NAME_SERVER_INTERVAL_MS,
            PERSIST_CONSUMER_OFFSET_INTERVAL_MS, RETRIES_WITHIN_CLUSTER, PULL_BATCH_SIZE, SHUTDOWN_AWAIT_MS);

    static EndpointTuning of(ClusterEndpoint endpoint) throws InvalidConfigurationException {
        Map<String, String> properties = endpoint.properties();
        for (String key : properties.keySet()) {
            if (key.startsWith(PREFIX) && !KNOWN.contains(key)) {
                throw new InvalidConfigurationException("unknown endpoint property '" + key + "' of cluster '"
                        + endpoint.clusterName() + "'; known RocketMQ properties are " + KNOWN.stream().sorted().toList());
            }
        }
        Parser parser = new Parser(endpoint);
        return new EndpointTuning(
                parser.optional(HEARTBEAT_BROKER_INTERVAL_MS, 1, Integer.MAX_VALUE),
                parser.optional(POLL_NAME_SERVER_INTERVAL_MS, 1, Integer.MAX_VALUE),
                parser.optional(PERSIST_CONSUMER_OFFSET_INTERVAL_MS, 1, Integer.MAX_VALUE),
                parser.optional(RETRIES_WITHIN_CLUSTER, 0, 100).orElse(DEFAULT_RETRIES_WITHIN_CLUSTER),
                parser.optional(PULL_BATCH_SIZE, 1, MAX_PULL_BATCH_SIZE),
                parser.optional(SHUTDOWN_AWAIT_MS, 0, Integer.MAX_VALUE).orElse(DEFAULT_SHUTDOWN_AWAIT_MS));
    }

    /** Applies what producers and consumers share: name server discovery and broker heartbeats. */
    void applyTo(ClientConfig client) {
        heartbeatBrokerIntervalMs.ifPresent(client::setHeartbeatBrokerInterval);
        pollNameServerIntervalMs.ifPresent(client::setPollNameServerInterval);
        persistConsumerOffsetIntervalMs.ifPresent(client::setPersistConsumerOffsetInterval);
    }

    private record Parser(ClusterEndpoint endpoint) {
        OptionalInt optional(String key, int min, int max) throws InvalidConfigurationException {
            String raw = endpoint.properties().get(key);
            if (raw == null) {
                return OptionalInt.empty();
            }
            int value;
            try {
                value = Integer.parseInt(raw.strip());
            } catch (NumberFormatException e) {
                throw invalid(key, raw, min, max, e);
            }
            if (value < min || value > max) {
                throw invalid(key, raw, min, max, null);
            }
            return OptionalInt.of(value);
        }

        private InvalidConfigurationException invalid(String key, String raw, int min, int max, Throwable cause) {
            String range = max == Integer.MAX_VALUE ? "an integer >= " + min : "an integer from " + min + " to " + max;
            return new InvalidConfigurationException("endpoint property '" + key + "' of cluster '"
                    + endpoint.clusterName() + "' must be " + range + ", but was '" + raw + "'", cause);
        }
    }
}
