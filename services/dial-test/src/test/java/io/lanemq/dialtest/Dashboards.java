package io.lanemq.dialtest;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.lanemq.testkit.RepoRoot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The files of {@code observability/} and the PromQL in them, for tests. */
final class Dashboards {
    /**
     * A tool the dashboards' checks need: skipped where it is missing on a developer's machine, but under
     * {@code CI=true} a missing tool fails the test, so CI never passes a check it did not run.
     */
    static void requireTool(boolean present, String missing) {
        if ("true".equals(System.getenv("CI"))) {
            assertTrue(present, missing);
        }
        assumeTrue(present, missing);
    }


    static final String DASHBOARD = "lanemq-dialtest-dashboard.json";
    static final String RULES = "lanemq-dialtest-alerts.yml";
    static final String RULES_TEST = "lanemq-dialtest-alerts.test.yml";
    static final String SDK_DASHBOARD = "lanemq-sdk.json";
    static final String SDK_RULES = "lanemq-sdk-alerts.yml";
    static final String SDK_RULES_TEST = "lanemq-sdk-alerts.test.yml";
    static final String PROXY_DASHBOARD = "lanemq-consumer-proxy.json";
    static final String PROXY_RULES = "lanemq-consumer-proxy-alerts.yml";
    static final String PROXY_RULES_TEST = "lanemq-consumer-proxy-alerts.test.yml";
    static final String DELAY_DASHBOARD = "lanemq-delay-server.json";
    static final String DELAY_RULES = "lanemq-delay-server-alerts.yml";
    static final String DELAY_RULES_TEST = "lanemq-delay-server-alerts.test.yml";
    /** promtool tests of the annotation queries every dashboard carries (no rule file of its own). */
    static final String ANNOTATIONS_TEST = "lanemq-annotations.test.yml";
    static final List<String> ALL = List.of(DASHBOARD, SDK_DASHBOARD, PROXY_DASHBOARD, DELAY_DASHBOARD);
    private static final Pattern METRIC = Pattern.compile("\\blanemq_[a-z0-9_]+");

    private Dashboards() {
    }

    static Path dir() {
        return Optional.ofNullable(System.getProperty("dialtest.dashboards")).map(Path::of)
                .orElseGet(() -> RepoRoot.resolve("observability")).toAbsolutePath();
    }

    /** One panel query: its panel's title and its expression. */
    record PanelQuery(String panel, String expr) {
    }

    /** The dial test dashboard's panel queries. */
    static List<PanelQuery> panelQueries() {
        return panelQueries(DASHBOARD);
    }

    static List<PanelQuery> panelQueries(String dashboard) {
        List<PanelQuery> queries = new ArrayList<>();
        for (JsonNode panel : read(new ObjectMapper(), dashboard).path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                queries.add(new PanelQuery(panel.path("title").asText(), target.path("expr").asText()));
            }
        }
        return queries;
    }

    /** A dashboard's annotation queries (Prometheus annotations: their {@code expr}), by annotation name. */
    static java.util.Map<String, String> annotationQueries(String dashboard) {
        java.util.Map<String, String> queries = new java.util.LinkedHashMap<>();
        for (JsonNode annotation : read(new ObjectMapper(), dashboard).path("annotations").path("list")) {
            if (annotation.has("expr")) {
                queries.put(annotation.path("name").asText(), annotation.path("expr").asText());
            }
        }
        return queries;
    }

    /** The dial test alert rules' expressions. */
    static List<String> ruleExpressions() {
        return ruleExpressions(RULES);
    }

    static List<String> ruleExpressions(String rules) {
        List<String> exprs = new ArrayList<>();
        for (JsonNode group : read(new ObjectMapper(new YAMLFactory()), rules).path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                exprs.add(rule.path("expr").asText());
            }
        }
        return exprs;
    }

    /** The dial test dashboard's template variable queries. */
    static List<String> templateQueries() {
        return templateQueries(DASHBOARD);
    }

    static List<String> templateQueries(String dashboard) {
        List<String> queries = new ArrayList<>();
        for (JsonNode variable : read(new ObjectMapper(), dashboard).path("templating").path("list")) {
            if (variable.path("query").has("query")) {
                queries.add(variable.path("query").path("query").asText());
            }
        }
        return queries;
    }

    static Set<String> metricNames(String promql) {
        Set<String> names = new TreeSet<>();
        Matcher m = METRIC.matcher(promql);
        while (m.find()) {
            names.add(m.group());
        }
        return names;
    }

    /** A panel query with Grafana's variables replaced, as Grafana would send it to Prometheus. */
    static String resolveVariables(String expr) {
        return expr.replace("$__rate_interval", "1m").replace("$__range", "5m")
            .replace("$environment", ".*").replace("$cluster", ".*").replace("$broker", ".*").replace("$kind", ".*")
            .replace("$application", ".*").replace("$logic_topic", ".*")
            .replace("$topic", ".*").replace("$group", ".*");
    }

    static JsonNode read(ObjectMapper mapper, String file) {
        try {
            return mapper.readTree(dir().resolve(file).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
