package io.lanemq.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.InvalidConfigurationException;
import org.junit.jupiter.api.Test;

class ConfigSourcesTest {
    @Test
    void anEtcdLocationNamesEndpointsAndKey() throws Exception {
        try (ConfigSource source = ConfigSources.open("etcd://127.0.0.1:2379,127.0.0.1:22379/lanemq/platform/prod")) {
            assertThat(source).isInstanceOf(EtcdConfigSource.class);
            assertThat(source.describe()).isEqualTo("etcd://127.0.0.1:2379,127.0.0.1:22379/lanemq/platform/prod");
        }
    }

    @Test
    void aMalformedEtcdLocationIsRejectedWithTheLocation() {
        assertThatThrownBy(() -> ConfigSources.open("etcd://127.0.0.1:2379"))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("'etcd://127.0.0.1:2379' needs endpoints and a key");
        assertThatThrownBy(() -> ConfigSources.open("etcd://127.0.0.1/lanemq/platform"))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("'127.0.0.1' is not host:port");
        assertThatThrownBy(() -> ConfigSources.open("etcd://127.0.0.1:2379/k?timeout=1"))
                .hasMessageContaining("unknown etcd setting 'timeout'");
        assertThatThrownBy(() -> ConfigSources.open("etcd://127.0.0.1:2379?tls=true"))
                .hasMessageContaining("needs endpoints and a key");
        assertThatThrownBy(() -> ConfigSources.open("etcd://127.0.0.1:2379/k?tls=true&tls=false"))
                .hasMessageContaining("setting 'tls' is given twice");
    }

    @Test
    void plaintextToAnEtcdThatIsNotLoopbackIsRefusedNamingTheEndpoint() {
        assertThatThrownBy(() -> ConfigSources.open("etcd://etcd-1.example:2379/lanemq/platform/prod"))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("etcd endpoint 'etcd-1.example:2379' is not a loopback address and TLS is not configured");
    }

    @Test
    void aPasswordInTheLocationIsRefusedWithoutRepeatingIt() {
        assertThatThrownBy(() -> ConfigSources.open("etcd://127.0.0.1:2379/k?user=sdk&password=hunter2"))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("'password': an etcd password is never a setting")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void tlsSettingsInTheQueryLeaveTheKeyAndEndpointsAsTheyWere() throws Exception {
        try (ConfigSource source = ConfigSources.open("etcd://etcd-1.example:2379/lanemq/platform/prod?tls=true")) {
            assertThat(source.describe()).isEqualTo("etcd://etcd-1.example:2379/lanemq/platform/prod");
        }
    }

    @Test
    void filesStillOpenAsFiles() throws Exception {
        try (ConfigSource source = ConfigSources.open("file:/etc/lanemq/platform.yaml")) {
            assertThat(source.describe()).isEqualTo("file:/etc/lanemq/platform.yaml");
        }
    }
}
