package io.lanemq.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lanemq.testkit.RepoRoot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each PrometheusRule of deploy/kubernetes/monitoring is its promtool-tested rule file, byte for byte below
 * {@code spec:}: kustomize cannot generate a PrometheusRule from a file, so the manifest is generated here instead
 * and compared. After changing a rule file, regenerate with
 * {@code mvn -pl testing/deploy-tests test -Dtest=PrometheusRulesTest -Dlanemq.regenerate=true} and commit both.
 */
class PrometheusRulesTest {
    private static final Path RULES = RepoRoot.resolve("observability");
    private static final Path MONITORING = KubernetesManifestsTest.BASE.resolve("monitoring");

    @ParameterizedTest
    @ValueSource(strings = {"consumer-proxy", "delay-server", "dialtest", "sdk"})
    void thePrometheusRuleIsTheTestedRuleFile(String component) throws IOException {
        Path ruleFile = RULES.resolve("lanemq-" + component + "-alerts.yml");
        Path manifest = MONITORING.resolve("prometheusrule-" + component + ".yaml");
        String expected = prometheusRule("lanemq-" + component + "-alerts", ruleFile);
        if (Boolean.getBoolean("lanemq.regenerate")) {
            Files.writeString(manifest, expected);
        }
        assertThat(Files.readString(manifest)).as(manifest + " is generated from " + ruleFile
                + "; regenerate it (this class's Javadoc says how)").isEqualTo(expected);

        JsonNode fromManifest = Kustomization.readOne(manifest).path("spec").path("groups");
        JsonNode fromRuleFile = Kustomization.readOne(ruleFile).path("groups");
        assertThat(fromManifest).as("the same rules, parsed").isEqualTo(fromRuleFile);
        assertThat(fromManifest.size()).isPositive();
    }

    /** Every alert links to its section of deploy/README.md, which says what it means and what to do. */
    @ParameterizedTest
    @ValueSource(strings = {"consumer-proxy", "delay-server", "dialtest", "sdk"})
    void everyAlertHasARunbookSectionInTheDeployGuide(String component) throws IOException {
        Path guide = RepoRoot.resolve("deploy", "README.md");
        java.util.Set<String> anchors = Files.readAllLines(guide).stream().filter(l -> l.startsWith("#"))
                .map(l -> l.replaceFirst("^#+\\s*", "").toLowerCase(java.util.Locale.ROOT)
                        .replaceAll("[^a-z0-9 _-]", "").replace(' ', '-'))
                .collect(Collectors.toSet());
        int alerts = 0;
        for (JsonNode group : Kustomization.readOne(RULES.resolve("lanemq-" + component + "-alerts.yml")).path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                if (!rule.has("alert")) {
                    continue;
                }
                alerts++;
                String alert = rule.path("alert").asText();
                String runbook = rule.path("annotations").path("runbook_url").asText();
                assertThat(runbook).as(alert + " runbook_url").isEqualTo("deploy/README.md#" + alert.toLowerCase(java.util.Locale.ROOT));
                assertThat(anchors).as(alert + ": a section in " + guide).contains(runbook.substring(runbook.indexOf('#') + 1));
            }
        }
        assertThat(alerts).isPositive();
    }

    /** The rule file from its {@code groups:} line on, under {@code spec:}; its leading comments stay behind. */
    static String prometheusRule(String name, Path ruleFile) throws IOException {
        List<String> lines = Files.readAllLines(ruleFile, StandardCharsets.UTF_8);
        int groups = lines.indexOf("groups:");
        if (groups < 0) {
            throw new IllegalStateException(ruleFile + " has no top-level 'groups:' line");
        }
        String spec = lines.subList(groups, lines.size()).stream()
                .map(line -> line.isBlank() ? "" : "  " + line)
                .collect(Collectors.joining("\n", "", "\n"));
        return "# Generated from observability/" + ruleFile.getFileName() + " (promtool-tested), so the cluster runs the\n"
                + "# rules that were tested: edit that file, then regenerate this one (deploy-tests, -Dlanemq.regenerate=true).\n"
                + "apiVersion: monitoring.coreos.com/v1\n"
                + "kind: PrometheusRule\n"
                + "metadata:\n"
                + "  name: " + name + "\n"
                + "spec:\n"
                + spec;
    }
}
