package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The consumer proxy's dashboard and alert rules (kept with the platform's other dashboards in
 * {@code dial-test/dashboards/}, where promtool checks them) query only names {@link ProxyMetrics} exports,
 * and the dashboard shows every one of them. The names come from a Prometheus scrape after every
 * {@code ProxyMetrics} method was called, so the suffixes are exactly Micrometer's.
 */
class ProxyDashboardMetricNamesTest {
    private static final Path DASHBOARDS = Path.of("..", "dial-test", "dashboards");
    private static final Pattern PROXY_METRIC = Pattern.compile("\\blanemq_proxy_[a-z0-9_]+");

    private static Set<String> exported;

    @BeforeAll
    static void scrapeEveryProxyMetric() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        ProxyMetrics metrics = new ProxyMetrics(registry);
        GroupKey group = new GroupKey("order-paid", "billing");
        Dispatcher dispatcher = new Dispatcher("names", new DispatchSettings(Duration.ofSeconds(10), 3,
                Duration.ofMillis(100), Duration.ofSeconds(1)), System::nanoTime, () -> 1, null);
        metrics.deliveries(group, "consumer-1").increment();
        metrics.acks(group).increment();
        metrics.redeliveries(group, DispatchListener.FailedBy.NACK).increment();
        metrics.deadLetters(group).increment();
        metrics.deadLetterFailures(group).increment();
        metrics.commitFailures(group).increment();
        metrics.droppedFrames("INVALID_ARGUMENT").increment();
        metrics.refusedCalls("UNAUTHENTICATED").increment();
        metrics.frameDeliveries().record(4);
        metrics.groupGauges(group, dispatcher, () -> 0);
        metrics.lag(group, "cluster-a", () -> 0);
        exported = Arrays.stream(registry.scrape().split("\n")).filter(line -> !line.startsWith("#") && !line.isBlank())
                .map(line -> line.replaceAll("[{ ].*", "")).collect(Collectors.toCollection(TreeSet::new));
        registry.close();
    }

    @Test
    void theDashboardAndTheAlertRulesUseOnlyExportedNames() throws IOException {
        Set<String> dashboard = namesIn("lanemq-consumer-proxy.json");
        Set<String> rules = namesIn("lanemq-consumer-proxy-alerts.yml");
        assertThat(dashboard).contains("lanemq_proxy_lag", "lanemq_proxy_deliveries_total", "lanemq_proxy_in_flight",
                "lanemq_proxy_redeliveries_total", "lanemq_proxy_dead_letters_total");
        assertThat(rules).isNotEmpty();
        assertThat(exported).containsAll(dashboard).containsAll(rules);
    }

    @Test
    void theDashboardShowsEveryProxyMetric() throws IOException, IllegalAccessException {
        Set<String> dashboard = namesIn("lanemq-consumer-proxy.json");
        Set<String> constants = new TreeSet<>();
        for (Field field : ProxyMetrics.class.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                constants.add(((String) field.get(null)).replace('.', '_'));
            }
        }
        assertThat(constants).hasSizeGreaterThanOrEqualTo(14);
        for (String constant : constants) {
            assertThat(dashboard).as("dashboard queries of %s", constant)
                    .anyMatch(name -> name.equals(constant) || name.startsWith(constant + "_"));
        }
    }

    private static Set<String> namesIn(String file) throws IOException {
        Matcher matcher = PROXY_METRIC.matcher(Files.readString(DASHBOARDS.resolve(file)));
        Set<String> names = new TreeSet<>();
        while (matcher.find()) {
            names.add(matcher.group());
        }
        return names;
    }
}
