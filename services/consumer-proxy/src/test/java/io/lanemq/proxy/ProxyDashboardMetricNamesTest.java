package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.testkit.metrics.PrometheusNames;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The consumer proxy's dashboard and alert rules (kept with the platform's other dashboards in
 * {@code observability/}, where promtool checks them) query only names {@link ProxyMetrics} exports,
 * and the dashboard shows every one of them. The names come from a Prometheus scrape after every
 * {@code ProxyMetrics} method was called, so the suffixes are exactly Micrometer's.
 */
class ProxyDashboardMetricNamesTest {
    private static final String PREFIX = "lanemq_proxy_";

    private static final Path DASHBOARD = PrometheusNames.dashboardsDir().resolve("lanemq-consumer-proxy.json");
    private static final Path RULES = PrometheusNames.dashboardsDir().resolve("lanemq-consumer-proxy-alerts.yml");

    private static Set<String> exported;

    @BeforeAll
    static void scrapeEveryProxyMetric() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        ProxyMetrics metrics = new ProxyMetrics(registry);
        GroupKey group = new GroupKey("order-paid", "billing");
        GroupDispatcher dispatcher = new GroupDispatcher("names", new DispatchPolicy(Duration.ofSeconds(10), 3,
                Duration.ofMillis(100), Duration.ofSeconds(1)), System::nanoTime, () -> 1, null);
        metrics.deliveries(group, "consumer-1").increment();
        metrics.acks(group).increment();
        metrics.redeliveries(group, DispatchListener.FailedBy.NACK).increment();
        metrics.deadLetters(group).increment();
        metrics.parkedRetries(group).increment();
        metrics.parkFailures(group).increment();
        metrics.deadLetterFailures(group).increment();
        metrics.commitFailures(group).increment();
        metrics.droppedFrames("INVALID_ARGUMENT").increment();
        metrics.refusedCalls("UNAUTHENTICATED").increment();
        metrics.refusedConnections("connection_cap").increment();
        metrics.frameDeliveries().record(4);
        metrics.groupGauges(group, dispatcher, () -> 0);
        metrics.lag(group, "cluster-a", () -> 0);
        metrics.queues(group, "cluster-a", () -> 2);
        exported = PrometheusNames.ofScrape(registry.scrape());
        registry.close();
    }

    @Test
    void theDashboardAndTheAlertRulesUseOnlyExportedNames() {
        assertThat(PrometheusNames.inFile(DASHBOARD, PREFIX)).contains("lanemq_proxy_lag", "lanemq_proxy_deliveries_total",
                "lanemq_proxy_in_flight", "lanemq_proxy_redeliveries_total", "lanemq_proxy_dead_letters_total");
        assertThat(PrometheusNames.inFile(RULES, PREFIX)).isNotEmpty();
        assertThat(PrometheusNames.queriedButNotExported(exported, PREFIX, DASHBOARD, RULES)).isEmpty();
    }

    @Test
    void theDashboardShowsEveryProxyMetricsMeter() {
        assertThat(PrometheusNames.constantsOf(ProxyMetrics.class)).hasSizeGreaterThanOrEqualTo(16);
        assertThat(PrometheusNames.notShown(ProxyMetrics.class, DASHBOARD, PREFIX)).isEmpty();
    }
}
