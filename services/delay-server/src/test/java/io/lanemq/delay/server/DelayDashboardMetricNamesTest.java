package io.lanemq.delay.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.delay.DelayEngine;
import io.lanemq.testkit.metrics.PrometheusNames;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The delay server's dashboard and alert rules (in {@code observability/}, where promtool checks them) query
 * only names {@link DelayServerMetrics} exports, and the dashboard shows every one of them. The names come from a
 * Prometheus scrape after every meter was created (gauges bound to a real engine), so the suffixes are Micrometer's.
 */
class DelayDashboardMetricNamesTest {
    private static final String PREFIX = "lanemq_delay_";

    private static final Path DASHBOARD = PrometheusNames.dashboardsDir().resolve("lanemq-delay-server.json");
    private static final Path RULES = PrometheusNames.dashboardsDir().resolve("lanemq-delay-server-alerts.yml");

    private static Set<String> exported;

    @BeforeAll
    static void scrapeEveryDelayServerMetric(@TempDir Path store) throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (DelayEngine engine = DelayEngine.builder().directory(store).sink(r -> CompletableFuture.completedFuture(null)).build()) {
            DelayServerMetrics metrics = new DelayServerMetrics(registry, "cluster-a");
            metrics.bind(engine, () -> 0, () -> 0);
            metrics.dueLag(5);
            metrics.fireLag(2);
            metrics.delivered.increment();
            metrics.cancelled("cancelled");
            metrics.checkpointQueue("restored");
            exported = PrometheusNames.ofScrape(registry.scrape());
        } finally {
            registry.close();
        }
    }

    @Test
    void theDashboardAndTheAlertRulesUseOnlyExportedNames() {
        assertThat(PrometheusNames.inFile(DASHBOARD, PREFIX)).contains("lanemq_delay_pending", "lanemq_delay_due_lag_seconds_bucket",
                "lanemq_delay_fire_lag_seconds_bucket", "lanemq_delay_deliveries_total");
        assertThat(PrometheusNames.inFile(RULES, PREFIX)).isNotEmpty();
        assertThat(PrometheusNames.queriedButNotExported(exported, PREFIX, DASHBOARD, RULES)).isEmpty();
    }

    @Test
    void theDashboardShowsEveryDelayServerMetricsMeter() {
        assertThat(PrometheusNames.constantsOf(DelayServerMetrics.class)).hasSizeGreaterThanOrEqualTo(16);
        assertThat(PrometheusNames.notShown(DelayServerMetrics.class, DASHBOARD, PREFIX)).isEmpty();
    }
}
