package io.lanemq.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.spi.ClusterCredentials;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A cluster's {@code credentials} and {@code tls}: the document names where the keys live, never the keys; a key that
 * looks like a secret is refused by name and line, and its value never appears in the error.
 */
class ClusterSecurityConfigTest {
    private static final String SECRET = "Sup3rS3cretValue";
    private static final String DOCUMENT = """
            clusters:
              cluster-a:
                idc: idc-a
                nameServer: "127.0.0.1:9876"
            %s
              cluster-b: { idc: idc-b, nameServer: "127.0.0.1:9877" }
            topics:
              order-paid:
                routes:
                  - { cluster: cluster-a, physicalTopic: order_paid }
                  - { cluster: cluster-b, physicalTopic: order_paid }
            """;

    private final PlatformConfigParser parser = new PlatformConfigParser();

    private static String withClusterA(String lines) {
        return DOCUMENT.formatted(lines.stripTrailing());
    }

    @Test
    void environmentVariablesAndTlsReachTheEndpoint() throws Exception {
        PlatformConfig config = parser.parse(withClusterA("""
                    tls: true
                    credentials:
                      accessKeyEnv: LANEMQ_CLUSTER_A_ACCESS_KEY
                      secretKeyEnv: LANEMQ_CLUSTER_A_SECRET_KEY
                """), "platform.yaml");

        ClusterConfig a = config.clusters().get("cluster-a");
        assertThat(a.tls()).isTrue();
        assertThat(a.endpoint().tls()).isTrue();
        assertThat(a.endpoint().credentials()).contains(
                new ClusterCredentials.Environment("LANEMQ_CLUSTER_A_ACCESS_KEY", "LANEMQ_CLUSTER_A_SECRET_KEY"));
        ClusterConfig b = config.clusters().get("cluster-b");
        assertThat(b.tls()).isFalse();
        assertThat(b.endpoint().credentials()).isEmpty();
    }

    @Test
    void aSecretFileReachesTheEndpoint() throws Exception {
        PlatformConfig config = parser.parse(withClusterA("""
                    credentials: { file: /etc/lanemq/cluster-a.properties }
                """), "platform.yaml");

        assertThat(config.clusters().get("cluster-a").endpoint().credentials())
                .contains(new ClusterCredentials.SecretFile(Path.of("/etc/lanemq/cluster-a.properties")));
    }

    @Test
    void aLiteralSecretKeyIsRefusedByNameAndLineWithoutItsValue() {
        String text = withClusterA("""
                    credentials:
                      accessKeyEnv: LANEMQ_CLUSTER_A_ACCESS_KEY
                      secretKey: %s
                """.formatted(SECRET));

        assertThatThrownBy(() -> parser.parse(text, "platform.yaml"))
                .isInstanceOf(InvalidPlatformConfigException.class)
                .hasMessageContaining("clusters.cluster-a.credentials.secretKey (line 7)")
                .hasMessageContaining("a secret never goes in the platform configuration")
                .message().doesNotContain(SECRET);
    }

    @Test
    void aSecretLikeKeyDirectlyUnderTheClusterOrInItsPropertiesIsRefusedToo() {
        assertThatThrownBy(() -> parser.parse(withClusterA("    password: " + SECRET), "platform.yaml"))
                .hasMessageContaining("clusters.cluster-a.password (line 5)")
                .hasMessageContaining("a secret never goes in the platform configuration")
                .message().doesNotContain(SECRET);
        assertThatThrownBy(() -> parser.parse(withClusterA("""
                    properties:
                      rocketmq.secretKey: %s
                """.formatted(SECRET)), "platform.yaml"))
                .hasMessageContaining("clusters.cluster-a.properties.rocketmq.secretKey")
                .hasMessageContaining("a secret never goes in the platform configuration")
                .message().doesNotContain(SECRET);
    }

    @Test
    void anOrdinaryUnknownKeyKeepsTheUsualError() {
        assertThatThrownBy(() -> parser.parse(withClusterA("    tsl: true"), "platform.yaml"))
                .hasMessageContaining("Unrecognized field \"tsl\"");
    }

    @Test
    void credentialsNeedExactlyOneFormWithValidNames() {
        assertThatThrownBy(() -> parser.parse(withClusterA("""
                    credentials: { accessKeyEnv: A_KEY, secretKeyEnv: B_KEY, file: /etc/keys }
                """), "platform.yaml"))
                .hasMessageContaining("clusters.cluster-a.credentials (line 5): give either accessKeyEnv and "
                        + "secretKeyEnv or file, not both");
        assertThatThrownBy(() -> parser.parse(withClusterA("""
                    credentials: { accessKeyEnv: A_KEY }
                """), "platform.yaml"))
                .hasMessageContaining("clusters.cluster-a.credentials.secretKeyEnv (line 5): must be the name of an "
                        + "environment variable");
        assertThatThrownBy(() -> parser.parse(withClusterA("""
                    credentials: { accessKeyEnv: "my key", secretKeyEnv: B_KEY }
                """), "platform.yaml"))
                .hasMessageContaining("clusters.cluster-a.credentials.accessKeyEnv (line 5): must be the name of an "
                        + "environment variable (letters, digits, '_'), was 'my key'");
        assertThatThrownBy(() -> parser.parse(withClusterA("    credentials: {}"), "platform.yaml"))
                .hasMessageContaining("clusters.cluster-a.credentials (line 5): needs accessKeyEnv and secretKeyEnv");
    }

    @Test
    void theWriterKeepsTheReferencesAndTheyParseBackTheSame() throws Exception {
        PlatformConfig config = parser.parse(withClusterA("""
                    tls: true
                    credentials: { accessKeyEnv: A_KEY, secretKeyEnv: A_SECRET }
                """).replace("cluster-b: { idc: idc-b, nameServer: \"127.0.0.1:9877\" }",
                "cluster-b: { idc: idc-b, nameServer: \"127.0.0.1:9877\", credentials: { file: /etc/b.properties } }"),
                "platform.yaml");

        String written = new PlatformConfigWriter().toYaml(config);
        PlatformConfig back = parser.parse(written, "written.yaml");

        assertThat(back.clusters()).isEqualTo(config.clusters());
        assertThat(back.clusters().get("cluster-b").credentials()).isEqualTo(Optional.of(CredentialsRef.file("/etc/b.properties")));
    }
}
