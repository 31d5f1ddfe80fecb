package io.lanemq.service.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class HttpAddressTest {

    @Test
    void parsesHostAndPortIncludingBracketedIpv6() {
        InetSocketAddress all = HttpAddress.parse("http-address", "0.0.0.0:9406");
        assertThat(all.getAddress().isAnyLocalAddress()).isTrue();
        assertThat(all.getPort()).isEqualTo(9406);
        assertThat(HttpAddress.parse("http-address", "[::1]:0").getAddress().isLoopbackAddress()).isTrue();
    }

    @Test
    void badValuesNameTheSettingAndTheValue() {
        assertThatThrownBy(() -> HttpAddress.parse("--http-address", "9406"))
                .hasMessage("--http-address must be HOST:PORT: 9406");
        assertThatThrownBy(() -> HttpAddress.parse("--http-address", "host:port"))
                .hasMessageContaining("--http-address").hasMessageContaining("numeric port: host:port");
        assertThatThrownBy(() -> HttpAddress.parse("--http-address", "0.0.0.0:70000"))
                .hasMessageContaining("port must be 0-65535: 0.0.0.0:70000");
        assertThatThrownBy(() -> HttpAddress.parse("--http-address", " "))
                .hasMessageContaining("--http-address must be HOST:PORT, was empty");
    }
}
