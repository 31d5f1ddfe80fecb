package io.lanemq.proxy;

import io.grpc.Status;
import io.grpc.StatusException;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.core.config.ConsumerSettings;
import io.lanemq.core.config.LogicTopicConfig;
import io.lanemq.core.config.PlatformConfig;
import io.lanemq.core.config.PlatformConfigRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.client.exception.MQClientException;

/**
 * The running groups, started on their first subscriber from the current platform configuration
 * and kept until the proxy stops. Unknown topics and groups are refused with {@code NOT_FOUND}.
 */
final class GroupRegistry {
    private final PlatformConfigRef platform;
    private final ProxyConfig config;
    private final ScheduledExecutorService ticker;
    private final ProxyMetrics metrics;
    private final AtomicLong deliveryIds = new AtomicLong();
    private final Map<GroupKey, GroupRuntime> running = new ConcurrentHashMap<>();
    private volatile boolean closed;

    GroupRegistry(PlatformConfigRef platform, ProxyConfig config, ScheduledExecutorService ticker, ProxyMetrics metrics) {
        this.platform = platform;
        this.config = config;
        this.ticker = ticker;
        this.metrics = metrics;
    }

    /** The running group, started now if needed. */
    GroupRuntime group(String logicTopic, String consumerGroup) throws StatusException {
        PlatformConfig snapshot = platform.current();
        LogicTopicConfig topic = snapshot.topic(logicTopic).orElseThrow(() -> Status.NOT_FOUND
                .withDescription("unknown logic topic '" + logicTopic + "'").asException());
        ConsumerSettings settings = topic.consumerGroups().get(consumerGroup);
        if (settings == null) {
            throw Status.NOT_FOUND.withDescription("consumer group '" + consumerGroup + "' is not declared for logic topic '"
                    + logicTopic + "'; declared: " + topic.consumerGroups().keySet()).asException();
        }
        GroupKey key = new GroupKey(logicTopic, consumerGroup);
        GroupRuntime existing = running.get(key);
        if (existing != null) {
            return existing;
        }
        synchronized (this) {
            if (closed) {
                throw Status.UNAVAILABLE.withDescription("the proxy is shutting down").asException();
            }
            existing = running.get(key);
            if (existing != null) {
                return existing;
            }
            try {
                GroupRuntime started = GroupRuntime.start(key, topic, settings, snapshot, config, ticker,
                        deliveryIds::incrementAndGet, metrics);
                running.put(key, started);
                return started;
            } catch (InvalidConfigurationException | MQClientException e) {
                throw Status.UNAVAILABLE.withDescription("cannot consume " + key + ": " + e.getMessage()).withCause(e).asException();
            }
        }
    }

    /** Stops new groups and returns the running ones. */
    synchronized List<GroupRuntime> closeForNewGroups() {
        closed = true;
        return new ArrayList<>(running.values());
    }
}
