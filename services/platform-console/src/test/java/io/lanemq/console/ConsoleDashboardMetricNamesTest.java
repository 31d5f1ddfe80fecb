package io.lanemq.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.testkit.metrics.PrometheusNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The dashboards' annotations query exactly {@link ConsoleMetrics}' names (ConsoleApiIT sees them on /metrics with
 * their values), and every console meter is shown: a renamed meter cannot leave an annotation silently empty.
 */
class ConsoleDashboardMetricNamesTest {
    private static final String PREFIX = "lanemq_console_";

    @Test
    void everyConsoleMetricADashboardQueriesIsAConsoleMetricsConstantAndEachIsShown() throws Exception {
        Set<String> constants = PrometheusNames.constantsOf(ConsoleMetrics.class);
        List<Path> dashboards;
        try (Stream<Path> files = Files.list(PrometheusNames.dashboardsDir())) {
            dashboards = files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
        }
        assertThat(dashboards).as("the four dashboards").hasSize(4);
        Set<String> used = new TreeSet<>();
        for (Path dashboard : dashboards) {
            Set<String> inFile = PrometheusNames.inFile(dashboard, PREFIX);
            assertThat(constants).as(dashboard + " queries console meters that exist").containsAll(inFile);
            used.addAll(inFile);
        }
        assertThat(used).as("every console meter is on the dashboards").containsExactlyInAnyOrderElementsOf(constants);
    }
}
