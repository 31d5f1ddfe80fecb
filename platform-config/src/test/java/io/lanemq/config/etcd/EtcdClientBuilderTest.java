package io.lanemq.config.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class EtcdClientBuilderTest {
    @Test
    void acceptsCommaSeparatedHostPortsWithOrWithoutHttpAndIpv6() {
        assertThat(EtcdClient.Builder.parseEndpoints("127.0.0.1:2379, http://etcd-1.example:2379/,[::1]:22379"))
                .containsExactly("127.0.0.1:2379", "etcd-1.example:2379", "[::1]:22379");
    }

    @Test
    void namesTheEndpointThatIsNotHostPort() {
        assertThatThrownBy(() -> EtcdClient.Builder.parseEndpoints("127.0.0.1:2379,etcd-2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'etcd-2' is not host:port");
        assertThatThrownBy(() -> EtcdClient.Builder.parseEndpoints("127.0.0.1:99999"))
                .hasMessageContaining("'127.0.0.1:99999' has no valid port");
        assertThatThrownBy(() -> EtcdClient.Builder.parseEndpoints("https://127.0.0.1:2379"))
                .hasMessageContaining("TLS is not supported");
        assertThatThrownBy(() -> EtcdClient.Builder.parseEndpoints(" "))
                .hasMessageContaining("etcd endpoints are empty");
    }

    @Test
    void validatesEachSettingWhenItIsSet() {
        EtcdClient.Builder builder = EtcdClient.builder("127.0.0.1:2379");
        assertThatThrownBy(() -> builder.requestTimeout(Duration.ZERO)).hasMessageContaining("requestTimeout must be positive");
        assertThatThrownBy(() -> builder.reconnectBackoff(Duration.ofSeconds(5), Duration.ofSeconds(1)))
                .hasMessageContaining("reconnect backoff max");
    }
}
