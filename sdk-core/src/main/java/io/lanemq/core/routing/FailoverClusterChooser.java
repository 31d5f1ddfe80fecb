package io.lanemq.core.routing;

import io.lanemq.core.config.LogicTopicConfig;
import io.lanemq.core.config.PlatformConfigRef;
import io.lanemq.core.config.TopicRoute;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.failover.CalleeStats;
import io.lanemq.failover.LatencyPolicy;
import io.lanemq.failover.Lease;
import io.lanemq.failover.WeightSpec;
import io.lanemq.failover.WeightedFailover;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Dual-IDC choice through the failover library: each logic topic's routes are callees weighted
 * by their configured weight. A cluster that fails or answers much slower than its peer loses
 * weight at once and regains it gradually; one that goes down is probed (see
 * {@link NameServerProbe}) and gets trial traffic when it answers. A sharding key keeps its
 * hashed route while that route is up, so order holds except across a failover.
 *
 * <p>Learned health survives configuration reloads: {@link WeightedFailover#update} keeps the
 * state of clusters that stay.
 */
public final class FailoverClusterChooser implements ClusterChooser {
    private final PlatformConfigRef config;
    private final SdkMetrics metrics;
    private final LatencyPolicy latencyPolicy;
    private final ScheduledExecutorService probes;
    private final Map<String, TopicFailover> byTopic = new ConcurrentHashMap<>();

    public FailoverClusterChooser(PlatformConfigRef config, SdkMetrics metrics) {
        this(config, metrics, LatencyPolicy.ofDefaults());
    }

    public FailoverClusterChooser(PlatformConfigRef config, SdkMetrics metrics, LatencyPolicy latencyPolicy) {
        this.config = config;
        this.metrics = metrics;
        this.latencyPolicy = latencyPolicy;
        this.probes = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "lanemq-sdk-cluster-probe");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public Optional<RouteLease> choose(LogicTopicConfig topic, Optional<String> shardingKey, Set<String> excluded) {
        TopicFailover state = stateFor(topic);
        Optional<Lease<String>> lease;
        if (shardingKey.isPresent()) {
            String sticky = ShardingKeys.routeOf(topic, shardingKey.get()).cluster();
            lease = excluded.contains(sticky) ? Optional.empty() : state.failover.pick(allBut(topic, sticky));
            if (lease.isEmpty()) {
                lease = state.failover.pick(union(excluded, sticky));
            }
        } else {
            lease = state.failover.pick(excluded);
        }
        return lease.map(l -> new FailoverLease(l, topic.route(l.callee()).orElseThrow()));
    }

    /** Weight, health and latency per cluster of a logic topic, for metrics and tests. */
    public List<CalleeStats<String>> stats(String logicTopic) {
        TopicFailover state = byTopic.get(logicTopic);
        return state == null ? List.of() : state.failover.stats();
    }

    private TopicFailover stateFor(LogicTopicConfig topic) {
        TopicFailover current = byTopic.get(topic.name());
        if (current != null && current.routes.equals(topic.routes())) {
            return current;
        }
        return byTopic.compute(topic.name(), (name, existing) -> {
            if (existing == null) {
                TopicFailover created = new TopicFailover(topic.routes(), WeightedFailover.<String>builder()
                        .name(name)
                        .callees(weights(topic.routes()))
                        .latency(latencyPolicy)
                        .healthChecker(new NameServerProbe(config))
                        .probeExecutor(probes)
                        .build());
                topic.routes().forEach(route -> metrics.clusterWeightGauge(name, route.cluster(),
                        () -> weightOf(name, route.cluster())));
                return created;
            }
            if (!existing.routes.equals(topic.routes())) {
                existing.failover.update(weights(topic.routes()));
                return new TopicFailover(topic.routes(), existing.failover);
            }
            return existing;
        });
    }

    private double weightOf(String logicTopic, String cluster) {
        return stats(logicTopic).stream().filter(s -> s.callee().equals(cluster)).mapToDouble(CalleeStats::currentWeight)
                .findFirst().orElse(0);
    }

    private static Map<String, WeightSpec> weights(List<TopicRoute> routes) {
        Map<String, WeightSpec> weights = new LinkedHashMap<>();
        routes.forEach(route -> weights.put(route.cluster(), WeightSpec.of(route.weight())));
        return weights;
    }

    private static Set<String> allBut(LogicTopicConfig topic, String cluster) {
        Set<String> others = new HashSet<>();
        topic.routes().forEach(route -> others.add(route.cluster()));
        others.remove(cluster);
        return others;
    }

    private static Set<String> union(Set<String> excluded, String cluster) {
        Set<String> all = new HashSet<>(excluded);
        all.add(cluster);
        return all;
    }

    @Override
    public void close() {
        new ArrayList<>(byTopic.values()).forEach(state -> state.failover.close());
        probes.shutdownNow();
    }

    /** The routes a topic's failover was built for, so a reload with new routes is noticed. */
    private record TopicFailover(List<TopicRoute> routes, WeightedFailover<String> failover) {
    }

    private record FailoverLease(Lease<String> lease, TopicRoute route) implements RouteLease {
        @Override
        public void succeeded(long latencyNanos) {
            lease.onSuccessNanos(latencyNanos);
        }

        @Override
        public void failed() {
            lease.onFailure();
        }

        @Override
        public void ignored() {
            lease.onIgnore();
        }
    }
}
