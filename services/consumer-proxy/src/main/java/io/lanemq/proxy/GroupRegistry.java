package io.lanemq.proxy;

import io.lanemq.support.Clocks;
import io.lanemq.support.attach.AttemptBudget;
import io.grpc.Status;
import io.grpc.StatusException;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.MessagingException;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigRef;
import io.lanemq.grpc.server.GrpcServerLimits;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running groups, started on their first subscriber from the current platform configuration
 * and stopped after the idle timeout without consumers, or when the proxy stops. Unknown topics and
 * groups are refused with {@code NOT_FOUND}.
 */
final class GroupRegistry {
    private static final Logger log = LoggerFactory.getLogger(GroupRegistry.class);
    private final PlatformConfigRef platform;
    private final ProxyServerOptions config;
    private final AtomicLong deliveryIds = new AtomicLong();
    private final Map<GroupKey, GroupRuntime> running = new ConcurrentHashMap<>();
    private final Map<GroupKey, Long> idleSince = new HashMap<>();
    private volatile boolean closed;
    /** What every group shares; its attach budget bounds the attempts of all groups together. */
    private final ProxyContext groups;

    /**
     * The largest frame to push: what a producer may send now (the platform's {@code producer.maxBodyBytes}) plus framing
     * room. The SDK's channel accepts up to the platform's ceiling, so a reload that raises the limit needs no reconnect.
     */
    int maxFrameBytes() {
        return GrpcServerLimits.maxFrameBytes(platform.current().producer().maxBodyBytes());
    }

    GroupRegistry(PlatformConfigRef platform, ProxyServerOptions config, ScheduledExecutorService ticker, ProxyMetrics metrics,
                  Clocks clocks) {
        this.groups = new ProxyContext(config, ticker, deliveryIds::incrementAndGet, metrics,
                new AttemptBudget(GroupRuntime.ATTACH, clocks.ticker()), clocks);
        this.platform = platform;
        this.config = config;
    }

    /** A consumer connected to a running group. */
    record Joined(GroupRuntime group, ConsumerSession session) {
    }

    /**
     * Connects a consumer, with no credits yet, to the running group (started now if needed); under
     * this registry's lock, so an idle group is never stopped between being found and being joined.
     */
    synchronized Joined join(String logicTopic, String consumerGroup, String consumerId, String lane,
                             ConsumerSession.DeliverySink sink) throws StatusException {
        GroupRuntime group = group(logicTopic, consumerGroup);
        return new Joined(group, group.dispatcher().connect(consumerId, lane, 0, sink));
    }

    private GroupRuntime group(String logicTopic, String consumerGroup) throws StatusException {
        PlatformConfig snapshot = platform.current();
        LogicTopicConfig topic = snapshot.topic(logicTopic).orElseThrow(() -> Status.NOT_FOUND
                .withDescription("unknown logic topic '" + logicTopic + "'").asException());
        ConsumerConfig settings = topic.consumerGroups().get(consumerGroup);
        if (settings == null) {
            throw Status.NOT_FOUND.withDescription("consumer group '" + consumerGroup + "' is not declared for logic topic '"
                    + logicTopic + "'; declared: " + topic.consumerGroups().keySet()).asException();
        }
        if (closed) {
            throw Status.UNAVAILABLE.withDescription("the proxy is shutting down").asException();
        }
        GroupKey key = new GroupKey(logicTopic, consumerGroup);
        GroupRuntime existing = running.get(key);
        if (existing != null) {
            return existing;
        }
        try {
            GroupRuntime started = GroupRuntime.start(key, topic, settings, snapshot, groups);
            running.put(key, started);
            return started;
        } catch (MessagingException e) {
            throw Status.UNAVAILABLE.withDescription("cannot consume " + key + ": " + e.getMessage()).withCause(e).asException();
        }
    }

    /**
     * Stops groups that have had no consumer for the idle timeout: their RocketMQ consumers leave the
     * group, so its queues go to whoever still serves it (another proxy, or DIRECT consumers after the
     * group switched modes) instead of being held here for nobody. Called periodically.
     */
    synchronized void stopIdleGroups() {
        long now = groups.clocks().ticker().read();
        for (GroupRuntime group : List.copyOf(running.values())) {
            if (group.dispatcher().consumers() > 0) {
                idleSince.remove(group.key());
                continue;
            }
            long since = idleSince.computeIfAbsent(group.key(), k -> now);
            if (closed || now - since < config.idleGroupTimeout().toNanos()) {
                continue;
            }
            running.remove(group.key());
            idleSince.remove(group.key());
            log.info("{}: no consumer for {}; releasing its queues", group.key(), config.idleGroupTimeout());
            try {
                group.stopFetching();
                group.awaitAcksAndCommit(0);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                group.close();
            }
        }
    }

    /**
     * Takes out of service the running groups whose spec differs in {@code next} (routes moved, a
     * cluster re-pointed, settings changed, the group or topic removed) and returns them; the caller
     * stops them gracefully and ends their streams, whose clients reconnect to a group built from
     * {@code next}.
     */
    synchronized List<GroupRuntime> detachChanged(PlatformConfig next) {
        List<GroupRuntime> changed = new ArrayList<>();
        for (GroupRuntime group : List.copyOf(running.values())) {
            if (!GroupSpec.of(next, group.key()).equals(Optional.of(group.spec()))) {
                running.remove(group.key());
                idleSince.remove(group.key());
                changed.add(group);
            }
        }
        return changed;
    }

    /** Per running group and cluster not fetched yet: why, since when. */
    List<String> detached() {
        List<String> lines = new ArrayList<>();
        running.values().forEach(group -> lines.addAll(group.detached()));
        return lines;
    }

    /** Stops new groups and returns the running ones. */
    synchronized List<GroupRuntime> closeForNewGroups() {
        closed = true;
        return new ArrayList<>(running.values());
    }
}
