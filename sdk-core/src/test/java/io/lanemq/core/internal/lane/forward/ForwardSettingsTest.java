package io.lanemq.core.internal.lane.forward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ForwardSettingsTest {
    private static final Path CERT = Path.of("/etc/lanemq/lane.crt");
    private static final Path KEY = Path.of("/etc/lanemq/lane.key");
    private static final Path CA = Path.of("/etc/lanemq/lane-ca.pem");
    private static final String TOKEN = "s3cret-lane-token";

    @Test
    void serverDefaults() {
        ForwardServerSettings settings = ForwardServerSettings.builder(CERT, KEY, TOKEN).build();

        assertThat(settings.host()).isEqualTo("0.0.0.0");
        assertThat(settings.port()).isZero();
        assertThat(settings.threads()).isEqualTo(4);
        assertThat(settings.queueCapacity()).isZero();
        assertThat(settings.shutdownGrace()).isEqualTo(Duration.ofSeconds(10));
        assertThat(settings.maxMessageBytes()).isEqualTo(16 * 1024 * 1024);
    }

    @Test
    void eachBadServerSettingIsNamed() {
        assertThatThrownBy(() -> ForwardServerSettings.builder(null, KEY, TOKEN).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("ForwardServerSettings.certificateChain is required");
        assertThatThrownBy(() -> ForwardServerSettings.builder(CERT, null, TOKEN).build())
                .hasMessage("ForwardServerSettings.privateKey is required");
        assertThatThrownBy(() -> ForwardServerSettings.builder(CERT, KEY, null).build())
                .hasMessage("ForwardServerSettings.token is required");
        assertThatThrownBy(() -> ForwardServerSettings.builder(CERT, KEY, "").build())
                .hasMessage("ForwardServerSettings.token must not be empty");
        assertThatThrownBy(() -> ForwardServerSettings.builder(CERT, KEY, "two words").build())
                .hasMessageStartingWith("ForwardServerSettings.token may hold only printable ASCII")
                .hasMessageNotContaining("two words");
        assertThatThrownBy(() -> ForwardServerSettings.builder(CERT, KEY, TOKEN).host(" ").build())
                .hasMessage("ForwardServerSettings.host must not be blank");
        assertThatThrownBy(() -> ForwardServerSettings.builder(CERT, KEY, TOKEN).host(null).build())
                .hasMessage("ForwardServerSettings.host is required");
        assertThatThrownBy(() -> ForwardServerSettings.builder(CERT, KEY, TOKEN).port(-1).build())
                .hasMessage("ForwardServerSettings.port must be within 0..65535, was -1");
        assertThatThrownBy(() -> ForwardServerSettings.builder(CERT, KEY, TOKEN).port(65536).build())
                .hasMessage("ForwardServerSettings.port must be within 0..65535, was 65536");
        assertThatThrownBy(() -> ForwardServerSettings.builder(CERT, KEY, TOKEN).threads(0).build())
                .hasMessage("ForwardServerSettings.threads must be at least 1, was 0");
        assertThatThrownBy(() -> ForwardServerSettings.builder(CERT, KEY, TOKEN).queueCapacity(-1).build())
                .hasMessage("ForwardServerSettings.queueCapacity must be at least 0, was -1");
        assertThatThrownBy(() -> ForwardServerSettings.builder(CERT, KEY, TOKEN).shutdownGrace(Duration.ZERO).build())
                .hasMessage("ForwardServerSettings.shutdownGrace must be positive, was PT0S");
        assertThatThrownBy(() -> ForwardServerSettings.builder(CERT, KEY, TOKEN).maxMessageBytes(1023).build())
                .hasMessage("ForwardServerSettings.maxMessageBytes must be at least 1024, was 1023");
        assertThat(ForwardServerSettings.builder(CERT, KEY, TOKEN).port(65535).threads(1).build().port()).isEqualTo(65535);
    }

    @Test
    void clientDefaultsAndEachBadClientSettingIsNamed() {
        ForwardClientSettings settings = ForwardClientSettings.builder(CA, TOKEN).build();
        assertThat(settings.callDeadline()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.idleTimeout()).isEqualTo(Duration.ofMinutes(5));

        assertThatThrownBy(() -> ForwardClientSettings.builder(null, TOKEN).build())
                .hasMessage("ForwardClientSettings.trustedCa is required");
        assertThatThrownBy(() -> ForwardClientSettings.builder(CA, "tab\there").build())
                .hasMessageStartingWith("ForwardClientSettings.token may hold only printable ASCII");
        assertThatThrownBy(() -> ForwardClientSettings.builder(CA, TOKEN).callDeadline(Duration.ofMillis(-1)).build())
                .hasMessage("ForwardClientSettings.callDeadline must be positive, was PT-0.001S");
        assertThatThrownBy(() -> ForwardClientSettings.builder(CA, TOKEN).callDeadline(null).build())
                .hasMessage("ForwardClientSettings.callDeadline is required");
        assertThatThrownBy(() -> ForwardClientSettings.builder(CA, TOKEN).idleTimeout(Duration.ZERO).build())
                .hasMessage("ForwardClientSettings.idleTimeout must be positive, was PT0S");
    }

    @Test
    void neitherSettingsPrintsTheToken() {
        assertThat(ForwardServerSettings.builder(CERT, KEY, TOKEN).build().toString()).doesNotContain(TOKEN).contains("token=***");
        assertThat(ForwardClientSettings.builder(CA, TOKEN).build().toString()).doesNotContain(TOKEN).contains("token=***");
    }

    @Test
    void aMissingCaFileIsNamedWhenTheClientIsMade() {
        Path missing = Path.of("/nonexistent/lane-ca.pem");
        assertThatThrownBy(() -> new LaneForwardClient(ForwardClientSettings.builder(missing, TOKEN).build(),
                new io.micrometer.core.instrument.simple.SimpleMeterRegistry()))
                .hasMessageContaining(missing.toString()).hasMessageContaining("ForwardClientSettings.trustedCa");
    }
}
