package io.lanemq.console.health;

import java.util.List;

/** What the health page shows: the dial test's figures, the SDK clients' reloads, and what could not be scraped. */
public record HealthReport(List<LaneFigures> lanes, List<ClientReload> clients, List<String> errors) {
    public HealthReport {
        lanes = List.copyOf(lanes);
        clients = List.copyOf(clients);
        errors = List.copyOf(errors);
    }

    /** Lanes per cluster, worst first within each, for the summary beside the configuration. */
    public java.util.Map<String, List<LaneFigures>> byCluster() {
        java.util.Map<String, List<LaneFigures>> out = new java.util.TreeMap<>();
        lanes.forEach(l -> out.computeIfAbsent(l.cluster(), c -> new java.util.ArrayList<>()).add(l));
        return out;
    }
}
