package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The dashboards query exactly the names {@link DialTestMetrics} exports, and it exports what it says. */
class DashboardMetricNamesTest {

    @Test
    void everyMetricInTheDashboardExistsInDialTestMetrics() {
        Set<String> used = new TreeSet<>();
        Dashboards.panelQueries().forEach(q -> used.addAll(Dashboards.metricNames(q.expr())));
        Dashboards.templateQueries().forEach(q -> used.addAll(Dashboards.metricNames(q)));
        assertThat(used).isNotEmpty();
        assertThat(DialTestMetrics.prometheusNames()).containsAll(used);
    }

    @Test
    void everyMetricInTheAlertRulesExistsInDialTestMetrics() {
        Set<String> used = new TreeSet<>();
        Dashboards.ruleExpressions().forEach(e -> used.addAll(Dashboards.metricNames(e)));
        assertThat(used).isNotEmpty();
        assertThat(DialTestMetrics.prometheusNames()).containsAll(used);
    }

    @Test
    void theDashboardCoversLossDuplicatesLatencyFailuresAndTheAckChannel() {
        Set<String> used = Dashboards.panelQueries().stream().flatMap(q -> Dashboards.metricNames(q.expr()).stream())
            .collect(Collectors.toSet());
        assertThat(used).contains("lanemq_dialtest_probes_lost_total", "lanemq_dialtest_probes_duplicated_total",
            "lanemq_dialtest_probe_latency_seconds_bucket", "lanemq_dialtest_send_failures_total",
            "lanemq_dialtest_ack_frames_rejected_total", "lanemq_dialtest_last_reconciliation_timestamp_seconds");
    }

    @Test
    void theRegistryExportsExactlyTheDeclaredNames() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        DialTestMetrics metrics = new DialTestMetrics(registry);
        DialTestMetrics.LaneMeters lane = metrics.lane(new LaneKey("c", "b", ProbeKind.NORMAL));
        lane.latency().record(java.time.Duration.ofMillis(3));
        metrics.pendingProbes(() -> 0);
        metrics.targetRate(() -> 10);
        metrics.consumerCluster("c");
        metrics.logicTopicWeight("t", "c", () -> 0.5);
        Set<String> scraped = Arrays.stream(registry.scrape().split("\n")).filter(l -> !l.startsWith("#") && !l.isBlank())
            .map(l -> l.replaceAll("[{ ].*", "")).collect(Collectors.toCollection(TreeSet::new));
        assertThat(scraped).containsExactlyInAnyOrderElementsOf(DialTestMetrics.prometheusNames());
        assertThat(registry.find(DialTestMetrics.PROBES_SENT).tags(Tags.of("cluster", "c", "broker", "b", "kind", "normal"))
            .counter()).isNotNull();
    }
}
