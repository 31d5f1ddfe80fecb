package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProxyServerOptionsTest {

    @Test
    void refusesToServeWithoutTlsOrTokensUnlessPlaintextIsExplicit() {
        assertThatThrownBy(() -> ProxyServerOptions.builder("file:/p.yaml").token("app", "12345678").build())
                .hasMessageContaining("needs a TLS key store");
        assertThatThrownBy(() -> ProxyServerOptions.builder("file:/p.yaml").allowPlaintext().build())
                .hasMessageContaining("no application tokens");
        assertThat(ProxyServerOptions.builder("file:/p.yaml").allowPlaintext().token("app", "12345678").build().keyStore()).isEmpty();
    }

    @Test
    void plaintextIsRefusedOnAnAddressThatIsNotLoopback() {
        assertThatThrownBy(() -> ProxyServerOptions.builder("file:/p.yaml").allowPlaintext().token("app", "12345678")
                .grpcAddress(new InetSocketAddress("0.0.0.0", 7443)).build())
                .hasMessageContaining("plaintext is allowed only on a loopback address, but grpcAddress is 0.0.0.0");
        assertThat(ProxyServerOptions.builder("file:/p.yaml").allowPlaintext().token("app", "12345678")
                .grpcAddress(new InetSocketAddress("127.0.0.1", 0)).build().keyStore()).isEmpty();
    }

    @Test
    void eachSettingIsCheckedWhenGivenAndTheMessageNamesIt() {
        ProxyServerOptions.Builder builder = ProxyServerOptions.builder("file:/p.yaml");
        assertThatThrownBy(() -> builder.token("app", "short")).hasMessageContaining("token of application 'app'");
        assertThatThrownBy(() -> builder.ackTimeout(Duration.ZERO)).hasMessageContaining("ackTimeout must be positive");
        assertThatThrownBy(() -> builder.backoff(Duration.ofSeconds(2), Duration.ofSeconds(1))).hasMessageContaining("backoff");
        assertThatThrownBy(() -> new GroupLimits(0, 0)).hasMessageContaining("maxInFlight");
        assertThatThrownBy(() -> new GroupLimits(1, -1)).hasMessageContaining("maxPerSecond");
        assertThatThrownBy(() -> ProxyServerOptions.builder(" ")).hasMessageContaining("configLocation");
    }

    @Test
    void groupLimitsOverrideTheDefaults() {
        ProxyServerOptions config = ProxyServerOptions.builder("file:/p.yaml").allowPlaintext().token("app", "12345678")
                .defaultLimits(new GroupLimits(100, 0)).groupLimits("billing", new GroupLimits(5, 50)).build();
        assertThat(config.limits("billing")).isEqualTo(new GroupLimits(5, 50));
        assertThat(config.limits("other")).isEqualTo(new GroupLimits(100, 0));
    }
}
