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
        ForwardServerOptions settings = ForwardServerOptions.builder(CERT, KEY, TOKEN).build();

        assertThat(settings.host()).isEqualTo("0.0.0.0");
        assertThat(settings.port()).isZero();
        assertThat(settings.threads()).isEqualTo(4);
        assertThat(settings.queueCapacity()).isZero();
        assertThat(settings.shutdownGrace()).isEqualTo(Duration.ofSeconds(10));
        assertThat(settings.maxMessageBytes()).isEqualTo(4 * 1024 * 1024 + 256 * 1024);
    }

    @Test
    void eachBadServerSettingIsNamed() {
        assertThatThrownBy(() -> ForwardServerOptions.builder(null, KEY, TOKEN).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("ForwardServerOptions.certificateChain is required");
        assertThatThrownBy(() -> ForwardServerOptions.builder(CERT, null, TOKEN).build())
                .hasMessage("ForwardServerOptions.privateKey is required");
        assertThatThrownBy(() -> ForwardServerOptions.builder(CERT, KEY, null).build())
                .hasMessage("ForwardServerOptions.token is required");
        assertThatThrownBy(() -> ForwardServerOptions.builder(CERT, KEY, "").build())
                .hasMessage("ForwardServerOptions.token must not be empty");
        assertThatThrownBy(() -> ForwardServerOptions.builder(CERT, KEY, "two words").build())
                .hasMessageStartingWith("ForwardServerOptions.token may hold only printable ASCII")
                .hasMessageNotContaining("two words");
        assertThatThrownBy(() -> ForwardServerOptions.builder(CERT, KEY, TOKEN).host(" ").build())
                .hasMessage("ForwardServerOptions.host must not be blank");
        assertThatThrownBy(() -> ForwardServerOptions.builder(CERT, KEY, TOKEN).host(null).build())
                .hasMessage("ForwardServerOptions.host is required");
        assertThatThrownBy(() -> ForwardServerOptions.builder(CERT, KEY, TOKEN).port(-1).build())
                .hasMessage("ForwardServerOptions.port must be within 0..65535, was -1");
        assertThatThrownBy(() -> ForwardServerOptions.builder(CERT, KEY, TOKEN).port(65536).build())
                .hasMessage("ForwardServerOptions.port must be within 0..65535, was 65536");
        assertThatThrownBy(() -> ForwardServerOptions.builder(CERT, KEY, TOKEN).threads(0).build())
                .hasMessage("ForwardServerOptions.threads must be at least 1, was 0");
        assertThatThrownBy(() -> ForwardServerOptions.builder(CERT, KEY, TOKEN).queueCapacity(-1).build())
                .hasMessage("ForwardServerOptions.queueCapacity must be at least 0, was -1");
        assertThatThrownBy(() -> ForwardServerOptions.builder(CERT, KEY, TOKEN).shutdownGrace(Duration.ZERO).build())
                .hasMessage("ForwardServerOptions.shutdownGrace must be positive, was PT0S");
        assertThatThrownBy(() -> ForwardServerOptions.builder(CERT, KEY, TOKEN).maxMessageBytes(1023).build())
                .hasMessage("ForwardServerOptions.maxMessageBytes must be at least 1024, was 1023");
        assertThat(ForwardServerOptions.builder(CERT, KEY, TOKEN).port(65535).threads(1).build().port()).isEqualTo(65535);
    }

    @Test
    void clientDefaultsAndEachBadClientSettingIsNamed() {
        ForwardClientOptions settings = ForwardClientOptions.builder(CA, TOKEN).build();
        assertThat(settings.callDeadline()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.idleTimeout()).isEqualTo(Duration.ofMinutes(5));

        assertThatThrownBy(() -> ForwardClientOptions.builder(null, TOKEN).build())
                .hasMessage("ForwardClientOptions.trustedCa is required");
        assertThatThrownBy(() -> ForwardClientOptions.builder(CA, "tab\there").build())
                .hasMessageStartingWith("ForwardClientOptions.token may hold only printable ASCII");
        assertThatThrownBy(() -> ForwardClientOptions.builder(CA, TOKEN).callDeadline(Duration.ofMillis(-1)).build())
                .hasMessage("ForwardClientOptions.callDeadline must be positive, was PT-0.001S");
        assertThatThrownBy(() -> ForwardClientOptions.builder(CA, TOKEN).callDeadline(null).build())
                .hasMessage("ForwardClientOptions.callDeadline is required");
        assertThatThrownBy(() -> ForwardClientOptions.builder(CA, TOKEN).idleTimeout(Duration.ZERO).build())
                .hasMessage("ForwardClientOptions.idleTimeout must be positive, was PT0S");
    }

    @Test
    void neitherSettingsPrintsTheToken() {
        assertThat(ForwardServerOptions.builder(CERT, KEY, TOKEN).build().toString()).doesNotContain(TOKEN).contains("token=***");
        assertThat(ForwardClientOptions.builder(CA, TOKEN).build().toString()).doesNotContain(TOKEN).contains("token=***");
    }

    @Test
    void aMissingCaFileIsNamedWhenTheClientIsMade() {
        Path missing = Path.of("/nonexistent/lane-ca.pem");
        assertThatThrownBy(() -> new LaneForwardClient(ForwardClientOptions.builder(missing, TOKEN).build(),
                new io.micrometer.core.instrument.simple.SimpleMeterRegistry()))
                .hasMessageContaining(missing.toString()).hasMessageContaining("ForwardClientOptions.trustedCa");
    }
}
