package io.lanemq.configtool;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValidateCommandTest {
    @TempDir
    Path dir;

    @Test
    void aValidFileExitsZeroWithClustersTopicsAndWeights() throws Exception {
        Path file = Files.writeString(dir.resolve("platform.yaml"), Documents.VALID);

        ToolRun run = ToolRun.of("validate", file.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).contains("VALID " + file)
                .contains("clusters (2):", "cluster-a: idc idc-a, name server 10.0.0.1:9876")
                .contains("logic topics (1):")
                .contains("order-paid: cluster-a/order_paid weight 70 (70%), cluster-b/order_paid weight 30 (30%); consumer groups: billing");
    }

    @Test
    void withEnvIt_summarisesWhatAClientOfThatEnvironmentResolves() throws Exception {
        Path file = Files.writeString(dir.resolve("platform.yaml"), Documents.VALID
                + "environments:\n  staging: { physicalTopicSuffix: _staging }\n");

        ToolRun staging = ToolRun.of("validate", "--env", "staging", file.toString());
        ToolRun prod = ToolRun.of("validate", "--env", "prod", file.toString());

        assertThat(staging.exitCode()).isZero();
        assertThat(staging.out()).contains("VALID " + file + " (environment staging)")
                .contains("order-paid: cluster-a/order_paid_staging weight 70 (70%), cluster-b/order_paid_staging weight 30");
        assertThat(prod.exitCode()).as("an environment the document does not have").isEqualTo(1);
        assertThat(prod.err()).contains("no environment 'prod' in this document; it has [default, staging]");
    }

    @Test
    void aTopicThatTakesStressTrafficListsItsShadowTopics() throws Exception {
        Path file = Files.writeString(dir.resolve("platform.yaml"), Documents.VALID.replace("  order-paid:\n",
                "  order-paid:\n    stressTest: true\n") + "stressTest: { shadowSuffix: _LOAD }\n");

        ToolRun run = ToolRun.of("validate", file.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("consumer groups: billing; stress-test traffic to cluster-a/order_paid_LOAD, cluster-b/order_paid_LOAD");
    }

    @Test
    void anInvalidFileExitsOneWithEveryProblemByKeyAndLine() throws Exception {
        Path file = Files.writeString(dir.resolve("platform.yaml"), Documents.INVALID);

        ToolRun run = ToolRun.of("validate", file.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("INVALID " + file + " (2 problems):")
                .contains("topics.order-paid.routes[0].cluster (line 8): unknown cluster 'cluster-q'")
                .contains("topics.order-paid.routes[1].weight (line 9): must be >= 0, was -5");
    }

    @Test
    void aMalformedFileNamesTheLine() throws Exception {
        Path file = Files.writeString(dir.resolve("platform.yaml"), "clusters:\n  a: { idc: x\ntopics: {}\n");

        ToolRun run = ToolRun.of("validate", file.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).containsPattern("\\(line [23]\\): malformed document");
    }

    @Test
    void aMissingFileExitsOne() {
        ToolRun run = ToolRun.of("validate", dir.resolve("nope.yaml").toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("cannot read").contains("nope.yaml");
    }

    @Test
    void usageErrorsExitTwo() {
        assertThat(ToolRun.of().exitCode()).isEqualTo(2);
        assertThat(ToolRun.of("publish", "x.yaml").err()).contains("Missing required options", "--etcd", "--key");
        assertThat(ToolRun.of("publish", "x.yaml").exitCode()).isEqualTo(2);
    }
}
