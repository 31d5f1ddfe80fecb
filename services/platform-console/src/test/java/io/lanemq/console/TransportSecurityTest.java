package io.lanemq.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransportSecurityTest {
    @Test
    void plainHttpOnlyWhenAskedForAndOnLoopback() throws Exception {
        ConsoleProperties properties = new ConsoleProperties();
        assertThatThrownBy(() -> TransportSecurity.decide(properties, InetAddress.getLoopbackAddress(), Map.<String, String>of()::get))
                .hasMessageStartingWith("lanemq.console.tls-key-store is required");

        properties.setPlaintext(true);
        assertThat(TransportSecurity.decide(properties, InetAddress.getByName("127.0.0.1"), Map.<String, String>of()::get)).isNull();
        assertThatThrownBy(() -> TransportSecurity.decide(properties, InetAddress.getByName("10.1.2.3"), Map.<String, String>of()::get))
                .hasMessage("lanemq.console.plaintext is allowed only when server.address is a loopback address, was 10.1.2.3");
        assertThatThrownBy(() -> TransportSecurity.decide(properties, null, Map.<String, String>of()::get))
                .hasMessageContaining("was every interface");
    }

    @Test
    void aKeyStoreServesHttpsWithItsPasswordFromTheEnvironmentOnly(@TempDir Path dir) throws Exception {
        Path keyStore = Files.writeString(dir.resolve("console.p12"), "not checked here");
        ConsoleProperties properties = new ConsoleProperties();
        properties.setTlsKeyStore(keyStore);

        assertThatThrownBy(() -> TransportSecurity.decide(properties, null, Map.<String, String>of()::get))
                .hasMessage("lanemq.console.tls-key-store-password-env names LANEMQ_CONSOLE_KEYSTORE_PASSWORD, which is not set");
        var ssl = TransportSecurity.decide(properties, InetAddress.getByName("10.1.2.3"),
                Map.of("LANEMQ_CONSOLE_KEYSTORE_PASSWORD", "s3cret")::get);
        assertThat(ssl.getKeyStore()).isEqualTo("file:" + keyStore);
        assertThat(ssl.getKeyStorePassword()).isEqualTo("s3cret");
    }
}
