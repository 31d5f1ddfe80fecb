package io.lanemq.api.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.InvalidConfigurationException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Credentials are read from where the reference says, every failure names the cluster and the place, never a key. */
class ClusterCredentialsTest {
    private static final String SECRET = "s3cr3t-value-never-printed";

    @TempDir
    Path dir;

    @Test
    void environmentVariablesGiveTheKeysAndTheirToStringHidesTheSecret() throws Exception {
        var credentials = new ClusterCredentials.Environment("A_ACCESS", "A_SECRET");

        ClusterCredentials.AccessKeys keys = credentials.resolve("cluster-a",
                Map.of("A_ACCESS", "app-a", "A_SECRET", " " + SECRET + "\n")::get);

        assertThat(keys.accessKey()).isEqualTo("app-a");
        assertThat(keys.secretKey()).isEqualTo(SECRET);
        assertThat(keys.toString()).contains("app-a").doesNotContain(SECRET);
    }

    @Test
    void aMissingOrEmptyVariableIsNamedWithTheCluster() {
        var credentials = new ClusterCredentials.Environment("A_ACCESS", "A_SECRET");

        assertThatThrownBy(() -> credentials.resolve("cluster-a", Map.of("A_ACCESS", "app-a")::get))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessage("the secret key of cluster 'cluster-a' is read from the environment variable A_SECRET, "
                        + "which is not set in this process");
        assertThatThrownBy(() -> credentials.resolve("cluster-a", Map.of("A_ACCESS", " ", "A_SECRET", SECRET)::get))
                .hasMessageContaining("environment variable A_ACCESS, which is empty");
    }

    @Test
    void aSecretFileGivesTheKeys() throws Exception {
        Path file = Files.writeString(dir.resolve("cluster-a.properties"), "accessKey=app-a\nsecretKey=" + SECRET + "\n");

        ClusterCredentials.AccessKeys keys = new ClusterCredentials.SecretFile(file).resolve("cluster-a", name -> null);

        assertThat(keys).isEqualTo(new ClusterCredentials.AccessKeys("app-a", SECRET));
    }

    @Test
    void anUnreadableOrIncompleteFileIsNamedWithoutItsContent() throws Exception {
        Path missing = dir.resolve("missing.properties");
        assertThatThrownBy(() -> new ClusterCredentials.SecretFile(missing).resolve("cluster-a", name -> null))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessage("cannot read the credentials file " + missing + " of cluster 'cluster-a': NoSuchFileException");

        Path partial = Files.writeString(dir.resolve("partial.properties"), "secretKey=" + SECRET + "\n");
        assertThatThrownBy(() -> new ClusterCredentials.SecretFile(partial).resolve("cluster-a", name -> null))
                .hasMessageContaining("has no accessKey")
                .message().doesNotContain(SECRET);
    }

    @Test
    void anEndpointPrintsWhereTheKeysAreNotTheKeys() {
        ClusterEndpoint endpoint = new ClusterEndpoint("cluster-a", "idc-a", "127.0.0.1:9876", Map.of())
                .secured(Optional.of(new ClusterCredentials.Environment("A_ACCESS", "A_SECRET")), true);

        assertThat(endpoint.toString()).contains("A_SECRET").contains("tls=true");
        assertThat(new ClusterEndpoint("cluster-a", "idc-a", "127.0.0.1:9876", Map.of()).credentials()).isEmpty();
    }
}
