package io.lanemq.spring;

import static io.lanemq.spring.LaneMqAutoConfigurationTest.invalidProperty;
import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.Lane;
import io.lanemq.api.LaneOptions;
import io.lanemq.api.MessagingClient;
import io.lanemq.testkit.tls.SelfSignedCertificate;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code lanemq.lanes.*} in an {@link ApplicationContextRunner}: binding into the SDK's {@link LaneOptions}, a
 * real forwarding endpoint started with the client (TLS from the testkit's certificate), and every bad value
 * failing the startup with the property's name. No broker is needed (the platform is unreachable).
 */
class LaneMqLanePropertiesTest {
    private static final String TOKEN = "starter-lane-token-0123456789";

    @TempDir
    Path directory;
    private ApplicationContextRunner runner;

    @BeforeEach
    void writePlatform() throws IOException {
        Path platform = Files.writeString(directory.resolve("platform.yaml"), LaneMqAutoConfigurationTest.PLATFORM);
        SelfSignedCertificate certificate = SelfSignedCertificate.shared();
        runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LaneMqAutoConfiguration.class))
                .withPropertyValues("lanemq.application-name=starter-lanes", "lanemq.config-location=file:" + platform,
                        "lanemq.producer.enabled=false", "lanemq.lanes.enabled=true",
                        "lanemq.lanes.certificate-chain=" + certificate.certificatePem(),
                        "lanemq.lanes.private-key=" + certificate.privateKeyPem(),
                        "lanemq.lanes.trusted-certificates=" + certificate.certificatePem(),
                        "lanemq.lanes.token=" + TOKEN);
    }

    @Test
    void bindsEveryLanePropertyAndTheClientServesItsEndpoint() {
        runner.withPropertyValues("lanemq.lanes.lane=A.X", "lanemq.lanes.listen-host=127.0.0.1", "lanemq.lanes.listen-port=0",
                        "lanemq.lanes.advertised-host=localhost", "lanemq.lanes.forward-timeout=5s",
                        "lanemq.lanes.server-threads=3", "lanemq.lanes.membership-refresh=500ms")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(MessagingClient.class);
                    LaneMqProperties properties = context.getBean(LaneMqProperties.class);
                    LaneOptions lanes = properties.clientOptions().lanes().orElseThrow();
                    assertThat(lanes.lane()).contains(Lane.of("A.X"));
                    assertThat(lanes.listenHost()).isEqualTo("127.0.0.1");
                    assertThat(lanes.listenPort()).isZero();
                    assertThat(lanes.advertisedHost()).isEqualTo("localhost");
                    assertThat(lanes.certificateChain()).isEqualTo(SelfSignedCertificate.shared().certificatePem());
                    assertThat(lanes.privateKey()).isEqualTo(SelfSignedCertificate.shared().privateKeyPem());
                    assertThat(lanes.trustedCertificates()).isEqualTo(SelfSignedCertificate.shared().certificatePem());
                    assertThat(lanes.token()).isEqualTo(TOKEN);
                    assertThat(lanes.forwardTimeout()).isEqualTo(Duration.ofSeconds(5));
                    assertThat(lanes.serverThreads()).isEqualTo(3);
                    assertThat(lanes.membershipRefresh()).isEqualTo(Duration.ofMillis(500));
                    assertThat(properties.toString()).contains("lane=A.X").doesNotContain(TOKEN);
                });
    }

    @Test
    void emptyLaneIsTheBaseAndUnsetValuesKeepTheSdkDefaults() {
        runner.withPropertyValues("lanemq.lanes.lane=", "lanemq.lanes.advertised-host=").run(context -> {
            LaneOptions lanes = context.getBean(LaneMqProperties.class).clientOptions().lanes().orElseThrow();
            LaneOptions defaults = LaneOptions.builder().tls(Path.of("c"), Path.of("k"), Path.of("t")).token(TOKEN).build();
            assertThat(lanes.lane()).isEmpty();
            assertThat(lanes.listenHost()).isEqualTo("127.0.0.1");
            assertThat(lanes.advertisedHost()).isEqualTo("127.0.0.1");
            assertThat(lanes.forwardTimeout()).isEqualTo(defaults.forwardTimeout());
            assertThat(lanes.serverThreads()).isEqualTo(defaults.serverThreads());
            assertThat(lanes.membershipRefresh()).isEqualTo(defaults.membershipRefresh());
        });
    }

    @Test
    void lanesAreOffUnlessEnabledWhateverElseIsSet() {
        runner.withPropertyValues("lanemq.lanes.enabled=false", "lanemq.lanes.lane=not a lane")
                .run(context -> assertThat(context.getBean(LaneMqProperties.class).clientOptions().lanes()).isEmpty());
    }

    @Test
    void eachBadValueFailsTheStartupNamingItsProperty() {
        assertRefused("lanemq.lanes.lane", "lanemq.lanes.lane=A..X");
        assertRefused("lanemq.lanes.listen-host", "lanemq.lanes.listen-host= ");
        assertRefused("lanemq.lanes.listen-port", "lanemq.lanes.listen-port=70000");
        assertRefused("lanemq.lanes.advertised-host", "lanemq.lanes.listen-host=0.0.0.0");
        assertRefused("lanemq.lanes.token", "lanemq.lanes.token=short");
        assertRefused("lanemq.lanes.token", "lanemq.lanes.token=");
        assertRefused("lanemq.lanes.certificate-chain", "lanemq.lanes.certificate-chain=");
        assertRefused("lanemq.lanes.private-key", "lanemq.lanes.private-key=" + directory.resolve("absent.pem"));
        assertRefused("lanemq.lanes.trusted-certificates", "lanemq.lanes.trusted-certificates=" + directory);
        assertRefused("lanemq.lanes.forward-timeout", "lanemq.lanes.forward-timeout=0s");
        assertRefused("lanemq.lanes.server-threads", "lanemq.lanes.server-threads=0");
        assertRefused("lanemq.lanes.membership-refresh", "lanemq.lanes.membership-refresh=10ms");
    }

    @Test
    void aBadTokenIsNeverQuotedInTheFailure() {
        String secretButShort = "s3cr3t-sp ace-token-xyz";
        runner.withPropertyValues("lanemq.lanes.token=" + secretButShort)
                .run(context -> assertThat(invalidProperty(context.getStartupFailure()))
                        .hasMessageStartingWith("lanemq.lanes.token: ").hasMessageNotContaining(secretButShort));
    }

    @Test
    void aTakenPortFailsNamingTheListenPort() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            runner.withPropertyValues("lanemq.lanes.listen-port=" + taken.getLocalPort())
                    .run(context -> assertThat(invalidProperty(context.getStartupFailure()))
                            .hasMessageStartingWith("lanemq.lanes.listen-port: cannot serve lane forwarding on 127.0.0.1:"
                                    + taken.getLocalPort()));
        }
    }

    @Test
    void anUnreadableDurationFailsInSpringsBindingNamingTheProperty() {
        runner.withPropertyValues("lanemq.lanes.forward-timeout=soon")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("Failed to bind properties under 'lanemq.lanes.forward-timeout'"));
    }

    private void assertRefused(String property, String setting) {
        runner.withPropertyValues(setting).run(context -> assertThat(invalidProperty(context.getStartupFailure()).property())
                .as(setting).isEqualTo(property));
    }
}
