package io.lanemq.config.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
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
        assertThatThrownBy(() -> EtcdClient.Builder.parseEndpoints(" "))
                .hasMessageContaining("etcd endpoints are empty");
    }

    @Test
    void httpsEndpointsAreAcceptedButNotMixedWithPlaintextOnes() {
        assertThat(EtcdClient.Builder.parseEndpoints("https://etcd-1.example:2379,HTTPS://etcd-2.example:2379"))
                .containsExactly("etcd-1.example:2379", "etcd-2.example:2379");
        assertThatThrownBy(() -> EtcdClient.builder("https://etcd-1.example:2379,127.0.0.1:2379"))
                .hasMessageContaining("mix https:// and plaintext");
        assertThatThrownBy(() -> EtcdClient.builder("http://etcd-1.example:2379")
                .security(new EtcdSecurity(Optional.of(EtcdTls.trustingSystemCas()), Optional.empty())).build())
                .hasMessageContaining("'etcd-1.example:2379' are given as http:// but TLS is configured");
    }

    @Test
    void plaintextIsRefusedForAnEndpointThatIsNotLoopbackNamingIt() {
        assertThatThrownBy(() -> EtcdClient.builder("127.0.0.1:2379,10.0.0.7:2379").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("etcd endpoint '10.0.0.7:2379' is not a loopback address and TLS is not configured")
                .hasMessageContaining("plaintext etcd is for tests on loopback only");
        assertThatThrownBy(() -> EtcdClient.builder("etcd-1.example:2379").build())
                .hasMessageContaining("'etcd-1.example:2379' is not a loopback address");
        assertThat(EtcdClient.Builder.isLoopback("localhost:2379")).isTrue();
        assertThat(EtcdClient.Builder.isLoopback("[::1]:2379")).isTrue();
        assertThat(EtcdClient.Builder.isLoopback("127.0.0.2:2379")).isTrue();
        assertThat(EtcdClient.Builder.isLoopback("[2001:db8::1]:2379")).isFalse();
    }

    @Test
    void anHttpsEndpointNeedsNoFurtherSettingsToLeaveLoopback() {
        try (EtcdClient client = EtcdClient.builder("https://etcd-1.example:2379").build()) {
            assertThat(client.security().describe()).isEqualTo("TLS trusting the JVM's CAs");
        }
    }

    @Test
    void validatesEachSettingWhenItIsSet() {
        EtcdClient.Builder builder = EtcdClient.builder("127.0.0.1:2379");
        assertThatThrownBy(() -> builder.requestTimeout(Duration.ZERO)).hasMessageContaining("requestTimeout must be positive");
        assertThatThrownBy(() -> builder.reconnectBackoff(Duration.ofSeconds(5), Duration.ofSeconds(1)))
                .hasMessageContaining("reconnect backoff max");
    }
}
