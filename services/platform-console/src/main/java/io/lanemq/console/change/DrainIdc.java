package io.lanemq.console.change;

import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConfigProblem;
import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.TopicRoute;
import io.lanemq.config.store.DocumentText;
import io.lanemq.config.store.HistoryEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.IntUnaryOperator;
import java.util.stream.Collectors;

/**
 * Moves every logic topic's whole send weight, in every environment that routes it itself, off the clusters of one IDC onto the others, keeping each topic's total
 * weight (so shares among the remaining clusters keep their ratio; when they all had 0 they split it evenly).
 * Consumers keep their routes: weight 0 still consumes, so what was sent to the drained IDC is still read.
 * A topic with no route outside the IDC cannot be drained: the whole drain is refused, naming it.
 */
public record DrainIdc(String idc) implements Change {
    private static final String DRAIN = "drain ";

    /** The IDC a history entry drained ({@code idc-b}); null when it records another change. */
    public static String drainedIn(HistoryEntry entry) {
        return entry.change().startsWith(DRAIN) ? entry.change().substring(DRAIN.length()) : null;
    }

    @Override
    public String describe() {
        return DRAIN + idc;
    }

    @Override
    public Scope scope() {
        return Scope.operator();
    }

    @Override
    public DocumentText applyTo(DocumentText document, PlatformConfig current) throws InvalidPlatformConfigException {
        Set<String> drained = current.clusters().values().stream().filter(c -> c.idc().equals(idc))
                .map(ClusterConfig::name).collect(Collectors.toSet());
        if (drained.isEmpty()) {
            throw new InvalidPlatformConfigException(describe(), List.of(new ConfigProblem("/clusters",
                    "no cluster is in IDC '" + idc + "'")));
        }
        DocumentText draft = document;
        List<ConfigProblem> problems = new ArrayList<>();
        // Every environment's own routes move too: a topic routed by staging itself would otherwise keep sending there.
        for (Configs.RouteSet set : Configs.routeSets(document.text(), describe())) {
            Set<String> inIdc = set.clustersIn(idc);
            List<TopicRoute> routes = set.topic().routes();
            if (set.weightOn(inIdc) == 0) {
                continue;
            }
            long kept = routes.stream().filter(r -> !inIdc.contains(r.cluster())).count();
            if (kept == 0) {
                problems.add(new ConfigProblem(set.pointer(), "has no route outside IDC '" + idc + "', so its sends cannot move"));
                continue;
            }
            draft = Configs.reweighted(draft, set, spread(routes, inIdc, set.topic().totalWeight()));
        }
        if (!problems.isEmpty()) {
            throw new InvalidPlatformConfigException(describe(), problems);
        }
        return draft;
    }

    /** New weights: 0 on drained routes, {@code total} over the others by their current ratio (remainder to the first). */
    private static IntUnaryOperator spread(List<TopicRoute> routes, Set<String> drained, int total) {
        int[] weights = new int[routes.size()];
        int keptSum = routes.stream().filter(r -> !drained.contains(r.cluster())).mapToInt(TopicRoute::weight).sum();
        long keptCount = routes.stream().filter(r -> !drained.contains(r.cluster())).count();
        int given = 0;
        int first = -1;
        for (int i = 0; i < routes.size(); i++) {
            TopicRoute route = routes.get(i);
            if (drained.contains(route.cluster())) {
                continue;
            }
            first = first < 0 ? i : first;
            weights[i] = keptSum == 0 ? (int) (total / keptCount) : (int) ((long) route.weight() * total / keptSum);
            given += weights[i];
        }
        weights[first] += total - given;
        return i -> weights[i];
    }
}
