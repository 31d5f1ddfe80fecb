package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code promtool check rules} and {@code promtool test rules} on the dial test's and the SDK's alert rules, with
 * Debian's Prometheus ({@code bin/setup-tools} installs it; skipped, saying so, only where promtool is absent).
 */
class DashboardRulesPromtoolTest {

    @ParameterizedTest
    @ValueSource(strings = {Dashboards.RULES, Dashboards.SDK_RULES, Dashboards.PROXY_RULES, Dashboards.DELAY_RULES})
    void theAlertRulesAreValid(String rules) throws Exception {
        Result result = promtool("check", "rules", rules);
        assertThat(result.exitCode).as(result.output).isZero();
        assertThat(result.output).contains("SUCCESS");
    }

    @ParameterizedTest
    @ValueSource(strings = {Dashboards.RULES_TEST, Dashboards.SDK_RULES_TEST, Dashboards.PROXY_RULES_TEST, Dashboards.DELAY_RULES_TEST,
        Dashboards.ANNOTATIONS_TEST})
    void theAlertRulesPassTheirUnitTests(String rulesTest) throws Exception {
        Result result = promtool("test", "rules", rulesTest);
        assertThat(result.exitCode).as(result.output).isZero();
        assertThat(result.output).contains("SUCCESS");
    }

    /**
     * Each panel and annotation query, its Grafana variables replaced, becomes a recording rule of a scratch rules
     * file, so {@code promtool check rules} parses it as Prometheus would: a typo in a dashboard fails here, not in
     * Grafana.
     */
    @ParameterizedTest
    @ValueSource(strings = {Dashboards.DASHBOARD, Dashboards.SDK_DASHBOARD, Dashboards.PROXY_DASHBOARD, Dashboards.DELAY_DASHBOARD})
    void everyPanelQueryParses(String dashboard, @TempDir Path scratch) throws Exception {
        List<Dashboards.PanelQuery> queries = new java.util.ArrayList<>(Dashboards.panelQueries(dashboard));
        Dashboards.annotationQueries(dashboard).forEach((name, expr) -> queries.add(new Dashboards.PanelQuery("annotation " + name, expr)));
        StringBuilder rules = new StringBuilder("groups:\n  - name: panels\n    rules:\n");
        for (int i = 0; i < queries.size(); i++) {
            rules.append("      - record: panel_").append(i).append("\n        expr: '")
                .append(Dashboards.resolveVariables(queries.get(i).expr()).replace("'", "''")).append("'\n");
        }
        Path file = Files.writeString(scratch.resolve("panels.yml"), rules);
        Result result = promtool("check", "rules", file.toString());
        assertThat(result.exitCode).as(dashboard + ": " + result.output).isZero();
        assertThat(result.output).contains("SUCCESS: " + queries.size() + " rules found");
    }

    private static Result promtool(String... args) throws IOException, InterruptedException {
        Optional<Path> promtool = executable("promtool");
        Dashboards.requireTool(promtool.isPresent(), "promtool is not installed (bin/setup-tools installs Debian's prometheus): "
            + "the alert rules were NOT checked");
        List<String> command = new java.util.ArrayList<>(List.of(promtool.get().toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(Dashboards.dir().toFile()).redirectErrorStream(true)
            .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(process.exitValue(), output);
    }

    static Optional<Path> executable(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private record Result(int exitCode, String output) {
    }
}
