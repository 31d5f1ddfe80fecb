package io.lanemq.console.health;

import io.lanemq.console.health.PrometheusText.Sample;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The series the console reads, in their Prometheus forms, and how they become figures. The names are the dial
 * test's ({@code DialTestMetrics}) and the SDK's ({@code SdkMetrics}); the console does not depend on either module
 * (it is a service beside them), so a test checks these spellings against theirs.
 */
public final class HealthSeries {
    public static final String PROBES_SENT = "lanemq_dialtest_probes_sent_total";
    public static final String PROBES_LOST = "lanemq_dialtest_probes_lost_total";
    public static final String PROBES_DUPLICATED = "lanemq_dialtest_probes_duplicated_total";
    public static final String PROBE_LATENCY_BUCKET = "lanemq_dialtest_probe_latency_seconds_bucket";
    public static final String LAST_RELOAD_FAILED = "lanemq_config_last_reload_failed";
    public static final String RELOADS = "lanemq_config_reloads_total";

    private HealthSeries() {
    }

    /** One row per cluster, broker and kind found in the dial test's samples. */
    public static List<LaneFigures> lanes(List<Sample> samples) {
        Map<List<String>, Map<String, Double>> counters = new TreeMap<>(Comparator.comparing(Object::toString));
        Map<List<String>, TreeMap<Double, Double>> buckets = new LinkedHashMap<>();
        for (Sample s : samples) {
            List<String> lane = List.of(s.label("cluster"), s.label("broker"), s.label("kind"));
            switch (s.name()) {
                case PROBES_SENT, PROBES_LOST, PROBES_DUPLICATED -> counters.computeIfAbsent(lane, k -> new LinkedHashMap<>())
                        .merge(s.name(), s.value(), Double::sum);
                case PROBE_LATENCY_BUCKET -> buckets.computeIfAbsent(lane, k -> new TreeMap<>())
                        .merge(bound(s.label("le")), s.value(), Double::sum);
                default -> { }
            }
        }
        List<LaneFigures> lanes = new ArrayList<>();
        counters.forEach((lane, c) -> lanes.add(new LaneFigures(lane.get(0), lane.get(1), lane.get(2),
                c.getOrDefault(PROBES_SENT, 0.0).longValue(), c.getOrDefault(PROBES_LOST, 0.0).longValue(),
                c.getOrDefault(PROBES_DUPLICATED, 0.0).longValue(), quantile(buckets.get(lane), 0.99))));
        return lanes;
    }

    /** One row per application found in the SDK samples of one scrape. */
    public static List<ClientReload> clients(List<Sample> samples, String source) {
        Map<String, double[]> byApplication = new TreeMap<>(); // last failed, applied, rejected
        for (Sample s : samples) {
            boolean lastFailed = s.name().equals(LAST_RELOAD_FAILED);
            if (!lastFailed && !s.name().equals(RELOADS)) {
                continue;
            }
            double[] figures = byApplication.computeIfAbsent(s.label("application"), a -> new double[3]);
            if (lastFailed) {
                figures[0] = Math.max(figures[0], s.value()); // several clients of one application: any rejected
            } else {
                figures["rejected".equals(s.label("outcome")) ? 2 : 1] += s.value();
            }
        }
        List<ClientReload> clients = new ArrayList<>();
        byApplication.forEach((application, v) -> clients.add(new ClientReload(application, source, v[0] >= 1, (long) v[1], (long) v[2])));
        return clients;
    }

    /** The upper bound of the cumulative bucket that holds the {@code q} quantile; NaN without observations. */
    static double quantile(TreeMap<Double, Double> cumulative, double q) {
        if (cumulative == null || cumulative.isEmpty()) {
            return Double.NaN;
        }
        double total = cumulative.lastEntry().getValue();
        if (total <= 0) {
            return Double.NaN;
        }
        for (Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
            if (bucket.getValue() >= q * total) {
                return bucket.getKey();
            }
        }
        return Double.POSITIVE_INFINITY;
    }

    private static double bound(String le) {
        return "+Inf".equals(le) ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
    }
}
