package io.lanemq.console.health;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the health page shows: the dial test's figures, the SDK clients' reloads, and what could not be read.
 *
 * @param basis what the figures count: {@link #SINCE_START}, or a window from Prometheus
 */
public record HealthReport(String basis, List<LaneFigures> lanes, List<ClientReload> clients, List<String> errors) {
    /** The basis of figures scraped from the processes themselves. */
    public static final String SINCE_START = "since each process started (its counters, scraped from its endpoint; "
            + "set lanemq.console.prometheus-url for the last minutes)";

    public HealthReport {
        lanes = List.copyOf(lanes);
        clients = List.copyOf(clients);
        errors = List.copyOf(errors);
    }

    /** Lanes per cluster, for the summary beside the configuration. */
    public Map<String, List<LaneFigures>> byCluster() {
        Map<String, List<LaneFigures>> out = new TreeMap<>();
        lanes.forEach(l -> out.computeIfAbsent(l.cluster(), c -> new ArrayList<>()).add(l));
        return out;
    }
}
