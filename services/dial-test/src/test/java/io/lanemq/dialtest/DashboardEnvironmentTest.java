package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The four dashboards' environment variable and annotations: each has {@code $environment} (every value, or one,
 * carried to the others by the link bar), every selector of a LaneMQ metric in a panel or another variable filters
 * by it, and each shows the same two annotations, configuration publishes and IDC drains, whose queries are the
 * ones {@code lanemq-annotations.test.yml} tests with promtool.
 */
class DashboardEnvironmentTest {
    private static final String FILTER = "environment=~\"$environment\"";
    private static final Pattern SELECTOR = Pattern.compile("\\b(lanemq_[a-z0-9_]+)(\\{[^}]*\\})?");
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void everyDashboardHasTheEnvironmentVariableRightAfterTheDatasource() {
        for (String file : Dashboards.ALL) {
            JsonNode variables = Dashboards.read(json, file).path("templating").path("list");
            JsonNode environment = variables.path(1);
            assertThat(environment.path("name").asText()).as(file + ": the second variable").isEqualTo("environment");
            assertThat(environment.path("query").path("query").asText()).as(file)
                    .matches("label_values\\(lanemq_[a-z0-9_]+, environment\\)");
            assertThat(environment.path("includeAll").asBoolean()).as(file + ": All by default").isTrue();
            assertThat(environment.path("allValue").asText()).as(file + ": All matches a series without the label too")
                    .isEqualTo(".*");
        }
    }

    @Test
    void everySelectorOfALaneMqMetricInAPanelOrVariableFiltersByTheEnvironment() {
        List<String> unfiltered = new ArrayList<>();
        int checked = 0;
        for (String file : Dashboards.ALL) {
            List<String> queries = new ArrayList<>();
            Dashboards.panelQueries(file).forEach(q -> queries.add(q.expr()));
            queries.addAll(Dashboards.templateQueries(file).stream().filter(q -> !q.endsWith(", environment)")).toList());
            queries.addAll(Dashboards.annotationQueries(file).values());
            for (String query : queries) {
                Matcher selector = SELECTOR.matcher(query);
                while (selector.find()) {
                    checked++;
                    if (selector.group(2) == null || !selector.group(2).contains(FILTER)) {
                        unfiltered.add(file + ": " + selector.group() + " in " + query);
                    }
                }
            }
        }
        assertThat(checked).as("selectors checked").isGreaterThan(100);
        assertThat(unfiltered).isEmpty();
    }

    @Test
    void everyDashboardAnnotatesConfigurationPublishesAndIdcDrainsWithTheQueriesPromtoolTests() throws Exception {
        Map<String, String> first = Dashboards.annotationQueries(Dashboards.ALL.get(0));
        assertThat(first.keySet()).containsExactly("Configuration published", "IDC drained");
        assertThat(first.get("Configuration published")).contains("lanemq_console_config_revision");
        assertThat(first.get("IDC drained")).contains("lanemq_console_idc_drained");
        for (String file : Dashboards.ALL) {
            assertThat(Dashboards.annotationQueries(file)).as(file + ": the same annotations everywhere").isEqualTo(first);
            for (JsonNode annotation : Dashboards.read(json, file).path("annotations").path("list")) {
                assertThat(annotation.path("enable").asBoolean()).as(file + " " + annotation.path("name") + " on").isTrue();
                assertThat(annotation.path("datasource").path("uid").asText()).isEqualTo("${datasource}");
            }
        }
        List<String> tested = new ArrayList<>();
        for (JsonNode test : Dashboards.read(new ObjectMapper(new YAMLFactory()), Dashboards.ANNOTATIONS_TEST).path("tests")) {
            test.path("promql_expr_test").forEach(t -> tested.add(t.path("expr").asText()));
        }
        for (String expr : first.values()) {
            assertThat(tested).as("promtool tests the annotation query " + expr).contains(Dashboards.resolveVariables(expr));
        }
    }
}
