package io.lanemq.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RepoRootTest {

    @TempDir
    Path tmp;

    @Test
    void theRootIsTheNearestDirectoryAboveHoldingThePomAndTheCiScript() throws Exception {
        Files.createDirectories(tmp.resolve(".ci"));
        Files.writeString(tmp.resolve(".ci/run"), "");
        Files.writeString(tmp.resolve("pom.xml"), "");
        Path module = Files.createDirectories(tmp.resolve("group/module"));
        Files.writeString(module.resolve("pom.xml"), "");

        assertThat(RepoRoot.above(module)).as("a module's own pom.xml is not the root").isEqualTo(tmp);
    }

    @Test
    void noRootAboveIsAnErrorNamingWhereTheSearchStarted() {
        assertThatThrownBy(() -> RepoRoot.above(tmp)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(tmp.toString());
    }

    @Test
    void fromThisModuleTheRootHoldsTheObservabilityDirectory() {
        assertThat(RepoRoot.resolve("observability")).isDirectory();
    }
}
