package io.lanemq.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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
 * {@code mvn -pl deploy-tests test -Dtest=PrometheusRulesTest -Dlanemq.regenerate=true} and commit both.
 */
class PrometheusRulesTest {
    private static final Path RULES = Path.of("..", "dial-test", "dashboards").toAbsolutePath().normalize();
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
        return "# Generated from dial-test/dashboards/" + ruleFile.getFileName() + " (promtool-tested) by\n"
                + "# deploy-tests' PrometheusRulesTest: edit the rule file, then regenerate this one (see that test).\n"
                + "apiVersion: monitoring.coreos.com/v1\n"
                + "kind: PrometheusRule\n"
                + "metadata:\n"
                + "  name: " + name + "\n"
                + "spec:\n"
                + spec;
    }
}
