package io.lanemq.core.internal.routing;

import io.lanemq.api.ClientHealth;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigRef;
import io.lanemq.config.TopicRoute;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.failover.CalleeStats;
import io.lanemq.failover.LatencyPolicy;
import io.lanemq.failover.Lease;
import io.lanemq.failover.WeightSpec;
import io.lanemq.failover.WeightedFailover;
import io.lanemq.support.NamedThreads;
import io.lanemq.support.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Dual-IDC choice through the failover library: each logic topic's routes are callees weighted
 * by their configured weight. A cluster that fails or answers much slower than its peer loses
 * weight at once and regains it gradually; one that goes down is probed (see
 * {@link NameServerProbe}) and gets trial traffic when it answers. A sharding key keeps its
 * hashed route while that route is up, so order holds except across a failover.
 *
 * <p>Learned health survives configuration reloads: {@link WeightedFailover#update} keeps the
 * state of clusters that stay. {@link #health()} reads it back per cluster, for the client's health.
 */
public final class FailoverClusterChooser implements ClusterChooser {
    /**
     * Slow means three times the best peer and 50 ms more. Between two IDCs of one region the
     * normal gap is 1-2 ms, so this flags a sick broker (a +100 ms one within seconds) but not
     * the jitter of a busy host, which a tighter margin would turn into traffic swings.
     */
    static final LatencyPolicy SDK_LATENCY_POLICY = LatencyPolicy.custom()
            .slowRatio(3.0)
            .slowMargin(Duration.ofMillis(50))
            .build();

    /** How long a start check's verdict holds for a topic's first send; the failover's own probes take over after. */
    private static final long START_CHECK_VALID_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(10);

    private final PlatformConfigRef config;
    private final SdkMetrics metrics;
    private final LatencyPolicy latencyPolicy;
    private final Ticker ticker;
    private final ScheduledExecutorService probes;
    private final Map<String, TopicFailover> byTopic = new ConcurrentHashMap<>();
    /** Clusters whose name servers refused or ignored a connection at a producer's start, and when (ticker). */
    private final Map<String, Long> unreachableSince = new ConcurrentHashMap<>();
    /** Runs the start checks' connects, one per cluster, so a silent cluster does not hold up the others' answer. */
    private final java.util.concurrent.ExecutorService startChecks;

    /**
     * @param ticker the client's clock, for the failover's latency averages and probe waits
     * @param owner  the application whose client this is, named in the probe thread's name
     */
    public FailoverClusterChooser(PlatformConfigRef config, SdkMetrics metrics, Ticker ticker, String owner) {
        this(config, metrics, SDK_LATENCY_POLICY, ticker, owner);
    }

    public FailoverClusterChooser(PlatformConfigRef config, SdkMetrics metrics, LatencyPolicy latencyPolicy, Ticker ticker,
                                  String owner) {
        this.config = config;
        this.metrics = metrics;
        this.latencyPolicy = latencyPolicy;
        this.ticker = ticker;
        this.probes = Executors.newSingleThreadScheduledExecutor(NamedThreads.single(NamedThreads.name("lanemq-sdk-cluster-probe", owner)));
        this.startChecks = Executors.newCachedThreadPool(NamedThreads.numbered(NamedThreads.name("lanemq-sdk-cluster-check", owner)));
    }

    /**
     * Before a producer's first send: connects to every cluster's name servers at once (500 ms at most each) and takes
     * the clusters none of whose name servers accepted out of rotation, on every logic topic, until the failover's
     * probe finds one answering (about every second). Without it a cluster down or silent at start is cold, not known
     * to be failing: each send picking it waits up to half the send timeout (its first sends normally wait for a route
     * and a connection), and a few senders all waiting on it leave whole seconds without a send. Returns the clusters
     * taken out, with why.
     *
     * @param check why a cluster cannot be reached now, empty when it can or cannot be told (the binding's answer)
     */
    public Map<String, String> checkReachable(java.util.function.Function<ClusterConfig, Optional<String>> check) {
        Map<String, java.util.concurrent.CompletableFuture<Optional<String>>> checks = new TreeMap<>();
        config.current().clusters().values().forEach(cluster -> checks.put(cluster.name(),
                java.util.concurrent.CompletableFuture.supplyAsync(() -> check.apply(cluster), startChecks)));
        Map<String, String> unreachable = new TreeMap<>();
        checks.forEach((cluster, answer) -> {
            Optional<String> failure = answer.join();
            if (failure.isPresent()) {
                unreachable.put(cluster, failure.get());
                unreachableSince.put(cluster, ticker.read());
                byTopic.values().forEach(state -> state.failover.markDown(cluster));
            } else {
                unreachableSince.remove(cluster);
            }
        });
        return unreachable;
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
        if (lease.isPresent()) {
            return Optional.of(new FailoverLease(lease.get(), topic.route(lease.get().callee()).orElseThrow(), state.judged));
        }
        return lastResort(topic, shardingKey, excluded);
    }

    /**
     * Every untried weighted cluster is down (a burst of "broker busy" can cut both IDCs at once): try one anyway (a
     * sharding key's own cluster, else one by configured weight) rather than fail a send no cluster was asked about.
     * A weight-0 cluster is never tried: weight 0 means drained (an operator moved the sends away, for maintenance or
     * before removing the route), and a send there could be stranded; the send fails instead once every weighted
     * cluster failed. The outcome is not fed back: the prober decides when a downed cluster is healthy again.
     */
    private static Optional<RouteLease> lastResort(LogicTopicConfig topic, Optional<String> shardingKey, Set<String> excluded) {
        if (shardingKey.isPresent()) {
            TopicRoute sticky = ShardingKeys.routeOf(topic, shardingKey.get());
            if (!excluded.contains(sticky.cluster())) {
                return Optional.of(new UnjudgedLease(sticky));
            }
        }
        int total = 0;
        for (TopicRoute route : topic.routes()) {
            total += excluded.contains(route.cluster()) ? 0 : route.weight();
        }
        if (total <= 0) {
            return Optional.empty();
        }
        int point = ThreadLocalRandom.current().nextInt(total);
        for (TopicRoute route : topic.routes()) {
            if (!excluded.contains(route.cluster())) {
                point -= route.weight();
                if (point < 0) {
                    return Optional.of(new UnjudgedLease(route));
                }
            }
        }
        return Optional.empty();
    }

    /** Weight, health and latency per cluster of a logic topic, for metrics and tests. */
    public List<CalleeStats<String>> stats(String logicTopic) {
        TopicFailover state = byTopic.get(logicTopic);
        return state == null ? List.of() : state.failover.stats();
    }

    /**
     * Every cluster of the configuration in force, as this client's sends judge it: {@code DOWN} when the failover of
     * a logic topic that routes to it has it out of rotation (failed or unanswered sends cut its weight below the down
     * threshold, and no name-server probe has brought it back since), {@code UP} when some send's outcome was
     * recorded for it and no topic has it down, {@code UNKNOWN} when none was. Reads the failovers' live state and asks
     * nothing of any cluster. Topics removed by a reload, and routes moved off a cluster, no longer count.
     */
    public List<ClientHealth.Cluster> health() {
        PlatformConfig current = config.current();
        List<ClientHealth.Cluster> clusters = new ArrayList<>();
        // By name: the configuration keeps no order of its clusters, and a health page should not reshuffle.
        for (ClusterConfig cluster : new TreeMap<>(current.clusters()).values()) {
            Set<String> downOn = new TreeSet<>();
            boolean judged = false;
            for (LogicTopicConfig topic : current.topics().values()) {
                TopicFailover state = byTopic.get(topic.name());
                if (state == null || topic.route(cluster.name()).isEmpty()) {
                    continue;
                }
                for (CalleeStats<String> callee : state.failover.stats()) {
                    if (callee.callee().equals(cluster.name()) && callee.down()) {
                        downOn.add(topic.name());
                    }
                }
                judged |= state.judged.contains(cluster.name());
            }
            if (!downOn.isEmpty()) {
                clusters.add(new ClientHealth.Cluster(cluster.name(), cluster.idc(), ClientHealth.ClusterState.DOWN,
                        Optional.of("out of the send rotation of logic topic " + String.join(", ", downOn)
                                + ": its sends failed or went unanswered, and no connection to one of its name servers"
                                + " has succeeded since")));
            } else if (judged) {
                clusters.add(new ClientHealth.Cluster(cluster.name(), cluster.idc(), ClientHealth.ClusterState.UP, Optional.empty()));
            } else {
                clusters.add(new ClientHealth.Cluster(cluster.name(), cluster.idc(), ClientHealth.ClusterState.UNKNOWN,
                        Optional.of("not judged: no send of this client has had an outcome on it yet")));
            }
        }
        return clusters;
    }

    private TopicFailover stateFor(LogicTopicConfig topic) {
        TopicFailover current = byTopic.get(topic.name());
        if (current != null && current.routes.equals(topic.routes())) {
            return current;
        }
        return byTopic.compute(topic.name(), (name, existing) -> {
            if (existing == null) {
                TopicFailover created = new TopicFailover(topic.routes(), ConcurrentHashMap.newKeySet(), WeightedFailover.<String>builder()
                        .name(name)
                        .callees(weights(topic.routes()))
                        .latency(latencyPolicy)
                        .ticker(ticker)
                        .healthChecker(new NameServerProbe(config))
                        .probeExecutor(probes)
                        .build());
                // A cluster found unreachable by a recent start check starts out of rotation here too; its probe brings it back.
                topic.routes().forEach(route -> {
                    Long since = unreachableSince.get(route.cluster());
                    if (since != null && ticker.read() - since < START_CHECK_VALID_NANOS) {
                        created.failover.markDown(route.cluster());
                    }
                });
                topic.routes().forEach(route -> metrics.clusterWeightGauge(name, route.cluster(),
                        () -> weightOf(name, route.cluster())));
                return created;
            }
            if (!existing.routes.equals(topic.routes())) {
                existing.failover.update(weights(topic.routes()));
                // The failover forgets a cluster the routes dropped; so does the record of judged ones.
                existing.judged.removeIf(cluster -> topic.route(cluster).isEmpty());
                topic.routes().stream()
                        .filter(route -> existing.routes.stream().noneMatch(old -> old.cluster().equals(route.cluster())))
                        .forEach(route -> metrics.clusterWeightGauge(name, route.cluster(), () -> weightOf(name, route.cluster())));
                return new TopicFailover(topic.routes(), existing.judged, existing.failover);
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
        startChecks.shutdownNow();
    }

    /**
     * The routes a topic's failover was built for, so a reload with new routes is noticed, and the clusters on which a
     * send's outcome was recorded: the failover's state alone cannot tell an untried cluster from a healthy one.
     */
    private record TopicFailover(List<TopicRoute> routes, Set<String> judged, WeightedFailover<String> failover) {
    }

    /** A lease whose outcome teaches the failover nothing. */
    private record UnjudgedLease(TopicRoute route) implements RouteLease {
        @Override
        public void succeeded(long latencyNanos) {
        }

        @Override
        public void failed() {
        }

        @Override
        public void ignored() {
        }
    }

    private record FailoverLease(Lease<String> lease, TopicRoute route, Set<String> judged) implements RouteLease {
        @Override
        public void succeeded(long latencyNanos) {
            lease.onSuccessNanos(latencyNanos);
            judged(route.cluster());
        }

        @Override
        public void failed() {
            lease.onFailure();
            judged(route.cluster());
        }

        private void judged(String cluster) {
            // A read first: after a cluster's first outcome, sends only read the set.
            if (!judged.contains(cluster)) {
                judged.add(cluster);
            }
        }

        @Override
        public void ignored() {
            lease.onIgnore();
        }
    }
}
