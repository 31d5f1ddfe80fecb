package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.config.ConsumptionMode;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.testkit.metrics.PrometheusNames;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The SDK dashboard and alert rules query only names {@link SdkMetrics} exports. The names come from Micrometer
 * itself: every {@code SdkMetrics} method is called on a Prometheus registry and the scrape is read, so the
 * suffixes ({@code _total}, {@code _seconds_bucket}, ...) are exactly Micrometer's; and every name constant of
 * {@code SdkMetrics} must appear in that scrape, so none is missed.
 */
class SdkDashboardMetricNamesTest {

    private static Set<String> exported;

    @BeforeAll
    static void scrapeEverySdkMetric() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        SdkMetrics metrics = new SdkMetrics(registry, "app");
        metrics.sendCompleted("t", "c", true, 1_000_000);
        metrics.sendCompleted("t", "c", false, 1_000_000);
        metrics.sendRejected("t", "RateLimited");
        metrics.clusterWeightGauge("t", "c", () -> 50);
        metrics.failedOver("t", "c");
        metrics.requestSent("c", 4);
        metrics.reloaded(true);
        metrics.reloadHealthGauge(() -> 0);
        metrics.configStaleGauge(() -> 0);
        metrics.configRevisionGauge(() -> 42);
        metrics.configCanaryGauge(() -> 0);
        metrics.consumed("t", "g", "c", SdkMetrics.ConsumeOutcome.SUCCESS, 1_000_000);
        metrics.consumerModeGauges("t", "g", "1-1", () -> ConsumptionMode.DIRECT);
        metrics.directThreadsGauge("t", "g", "1-1", "c", "t_a", 8);
        metrics.directDrainingGauge("t", "g", "1-1", () -> 0);
        metrics.consumerLagGauge("t", "g", "1-1", "c", () -> 3);
        metrics.attachAttempt("g", "c", SdkMetrics.AttachOutcome.UNREACHABLE);
        metrics.producerStartAttempt("g", "c", SdkMetrics.AttachOutcome.REFUSED);
        metrics.proxyConnectedGauge("t", "g", "consumer-1", () -> 1);
        metrics.proxyStreamEnded("t", "g", "UNAUTHENTICATED");
        metrics.laneRouted("g", SdkMetrics.LaneOutcome.FORWARDED);
        metrics.duplicatesDropped("t", "g").increment();
        metrics.dedupStoreFailures("t", "g", "claim").increment();
        metrics.retryBackoff("t", "g", SdkMetrics.RetryPath.PROXY);
        exported = PrometheusNames.ofScrape(registry.scrape());
        registry.close();
    }

    @Test
    void everyNameConstantOfSdkMetricsIsInTheScrape() {
        Set<String> constants = PrometheusNames.constantsOf(SdkMetrics.class);
        assertThat(constants).hasSizeGreaterThanOrEqualTo(9);
        for (String constant : constants) {
            assertThat(PrometheusNames.covers(exported, constant)).as("Prometheus names of %s", constant).isTrue();
        }
    }

    @Test
    void everyMetricInTheSdkDashboardExistsInSdkMetrics() {
        Set<String> used = new TreeSet<>();
        Dashboards.panelQueries(Dashboards.SDK_DASHBOARD).forEach(q -> used.addAll(Dashboards.metricNames(q.expr())));
        Dashboards.templateQueries(Dashboards.SDK_DASHBOARD).forEach(q -> used.addAll(Dashboards.metricNames(q)));
        assertThat(used).contains("lanemq_producer_sends_total", "lanemq_producer_send_latency_seconds_bucket",
            "lanemq_producer_cluster_weight", "lanemq_producer_failovers_total", "lanemq_config_reloads_total",
            "lanemq_config_last_reload_failed", "lanemq_consumer_messages_total", "lanemq_consumer_lane_routed_total",
            "lanemq_consumer_process_latency_seconds_bucket", "lanemq_consumer_lag");
        assertThat(exported).containsAll(used);
    }

    @Test
    void everyMetricInTheSdkAlertRulesExistsInSdkMetrics() {
        Set<String> used = new TreeSet<>();
        Dashboards.ruleExpressions(Dashboards.SDK_RULES).forEach(e -> used.addAll(Dashboards.metricNames(e)));
        assertThat(used).isNotEmpty();
        assertThat(exported).containsAll(used);
    }

    @Test
    void theSdkDashboardUsesNoDialTestMetricAndTheDialTestDashboardNoSdkMetric() {
        Set<String> sdk = Dashboards.panelQueries(Dashboards.SDK_DASHBOARD).stream()
            .flatMap(q -> Dashboards.metricNames(q.expr()).stream()).collect(Collectors.toSet());
        assertThat(sdk).noneMatch(n -> n.startsWith("lanemq_dialtest_"));
        assertThat(DialTestMetrics.prometheusNames()).doesNotContainAnyElementsOf(exported);
    }
}
