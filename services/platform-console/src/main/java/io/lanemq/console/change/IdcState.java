package io.lanemq.console.change;

import io.lanemq.config.ClusterConfig;
import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.PlatformConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * One IDC of a document: whether it takes sends, and the topics a drain of it would move (an environment's own
 * routes named with it: {@code orders (staging)}). Drained when some route points at it and none carries weight
 * there, in any environment.
 */
public record IdcState(String idc, List<String> wouldMove, boolean drained) {
    public IdcState {
        wouldMove = List.copyOf(wouldMove);
    }

    /** Every IDC of {@code config}'s clusters, by name, as {@code yaml} (its text) routes them. */
    public static List<IdcState> all(PlatformConfig config, String yaml, String source) throws InvalidPlatformConfigException {
        List<Configs.RouteSet> routes = Configs.routeSets(yaml, source);
        List<IdcState> idcs = new ArrayList<>();
        for (String idc : new TreeSet<>(config.clusters().values().stream().map(ClusterConfig::idc).toList())) {
            idcs.add(of(routes, idc));
        }
        return idcs;
    }

    static IdcState of(List<Configs.RouteSet> routes, String idc) {
        List<String> moving = routes.stream().filter(set -> set.weightOn(set.clustersIn(idc)) > 0)
                .map(Configs.RouteSet::label).sorted().toList();
        boolean routed = routes.stream().anyMatch(set -> set.topic().routes().stream()
                .anyMatch(r -> set.clustersIn(idc).contains(r.cluster())));
        return new IdcState(idc, moving, routed && moving.isEmpty());
    }
}
