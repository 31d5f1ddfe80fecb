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
                .hasMessageContaining("no query");
    }

    @Test
    void filesStillOpenAsFiles() throws Exception {
        try (ConfigSource source = ConfigSources.open("file:/etc/lanemq/platform.yaml")) {
            assertThat(source.describe()).isEqualTo("file:/etc/lanemq/platform.yaml");
        }
    }
}
