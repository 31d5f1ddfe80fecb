package io.lanemq.console.health;

import io.lanemq.console.health.PrometheusText.Sample;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The health page's figures over a window (the last few minutes) from Prometheus's HTTP API: what the dial test
 * sent, lost and duplicated in the window ({@code increase}), its p99 in the window ({@code histogram_quantile} of
 * the buckets' {@code rate}), and per SDK application whether its last configuration change was rejected and the
 * changes applied and rejected in the window. Series of every instance and environment are summed per row.
 */
final class PrometheusHealth {
    private static final String LANE = "cluster, broker, kind";

    private final PrometheusApi api;
    private final String window;

    PrometheusHealth(PrometheusApi api, Duration window) {
        this.api = api;
        this.window = promqlDuration(window);
    }

    static String promqlDuration(Duration window) {
        long seconds = window.toSeconds();
        return seconds % 60 == 0 ? seconds / 60 + "m" : seconds + "s";
    }

    String window() {
        return window;
    }

    PrometheusApi api() {
        return api;
    }

    static String increase(String counter, String window) {
        return "sum by (" + LANE + ") (increase(" + counter + "[" + window + "]))";
    }

    static String p99(String window) {
        return "histogram_quantile(0.99, sum by (" + LANE + ", le) (rate(" + HealthSeries.PROBE_LATENCY_BUCKET + "["
                + window + "])))";
    }

    List<LaneFigures> lanes() throws IOException, InterruptedException {
        Map<List<String>, double[]> rows = new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
        String[] counters = {HealthSeries.PROBES_SENT, HealthSeries.PROBES_LOST, HealthSeries.PROBES_DUPLICATED};
        for (int i = 0; i < counters.length; i++) {
            for (Sample s : api.query(increase(counters[i], window))) {
                rows.computeIfAbsent(lane(s), k -> new double[] {0, 0, 0, Double.NaN})[i] = s.value();
            }
        }
        for (Sample s : api.query(p99(window))) {
            double[] row = rows.get(lane(s));
            if (row != null) {
                row[3] = s.value();
            }
        }
        List<LaneFigures> lanes = new ArrayList<>();
        rows.forEach((lane, v) -> lanes.add(new LaneFigures(lane.get(0), lane.get(1), lane.get(2), Math.round(v[0]),
                Math.round(v[1]), Math.round(v[2]), v[3])));
        return lanes;
    }

    List<ClientReload> clients() throws IOException, InterruptedException {
        Map<String, double[]> byApplication = new TreeMap<>(); // last failed, applied, rejected
        for (Sample s : api.query("max by (application) (" + HealthSeries.LAST_RELOAD_FAILED + ")")) {
            byApplication.computeIfAbsent(s.label("application"), a -> new double[3])[0] = s.value();
        }
        for (Sample s : api.query("sum by (application, outcome) (increase(" + HealthSeries.RELOADS + "[" + window + "]))")) {
            byApplication.computeIfAbsent(s.label("application"), a -> new double[3])["rejected".equals(s.label("outcome")) ? 2 : 1]
                    += s.value();
        }
        Map<String, ClientReload> clients = new LinkedHashMap<>();
        byApplication.forEach((application, v) -> clients.put(application, new ClientReload(application,
                "Prometheus", v[0] >= 1, Math.round(v[1]), Math.round(v[2]))));
        return List.copyOf(clients.values());
    }

    private static List<String> lane(Sample s) {
        return List.of(s.label("cluster"), s.label("broker"), s.label("kind"));
    }
}
