package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.grpc.server.GrpcServerLimits;
import io.lanemq.proxy.boot.InvalidProxyPropertyException;
import io.lanemq.proxy.boot.InvalidProxyPropertyFailureAnalyzer;
import io.lanemq.proxy.boot.ProxyProperties;
import io.lanemq.proxy.boot.ProxyServiceConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** {@code lanemq.proxy.*} into a {@link ProxyServerOptions}; a bad value stops the context from starting and names the property. */
class ProxyPropertiesTest {
    @TempDir
    Path dir;

    @Test
    void everyPropertyReachesTheProxyConfig() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens.properties"), "billing-app = secret-token-1\n");
        ProxyServerOptions config = bind(Map.ofEntries(
                Map.entry("lanemq.proxy.config-location", "file:/etc/p.yaml"),
                Map.entry("lanemq.proxy.listen", "127.0.0.1:0"),
                Map.entry("lanemq.proxy.plaintext", "true"),
                Map.entry("lanemq.proxy.tokens-file", tokens.toString()),
                Map.entry("lanemq.proxy.proxy-id", "proxy-7"),
                Map.entry("lanemq.proxy.ack-timeout", "5000"),
                Map.entry("lanemq.proxy.initial-backoff", "2s"),
                Map.entry("lanemq.proxy.max-backoff", "3m"),
                Map.entry("lanemq.proxy.broker-retry-from", "20s"),
                Map.entry("lanemq.proxy.drain-timeout", "4s"),
                Map.entry("lanemq.proxy.idle-group-timeout", "45s"),
                Map.entry("lanemq.proxy.commit-interval", "250ms"),
                Map.entry("lanemq.proxy.max-in-flight", "300"),
                Map.entry("lanemq.proxy.max-per-second", "40"),
                Map.entry("lanemq.proxy.group-limits.billing.max-in-flight", "10"),
                Map.entry("lanemq.proxy.group-limits.billing.max-per-second", "20"),
                Map.entry("lanemq.proxy.group-limits.audit.max-in-flight", "5"),
                Map.entry("lanemq.proxy.grpc.max-connections", "77"),
                Map.entry("lanemq.proxy.grpc.handshake-timeout", "3s"),
                Map.entry("lanemq.proxy.grpc.keep-alive-timeout", "5s"))).toProxyConfig();
        assertThat(config.configLocation()).isEqualTo("file:/etc/p.yaml");
        assertThat(config.grpcAddress().getHostString()).isEqualTo("127.0.0.1");
        assertThat(config.keyStore()).isEmpty();
        assertThat(config.tokens()).containsExactly(Map.entry("billing-app", "secret-token-1"));
        assertThat(config.proxyId()).isEqualTo("proxy-7");
        assertThat(config.ackTimeout()).as("a bare number is milliseconds").isEqualTo(Duration.ofSeconds(5));
        assertThat(config.initialBackoff()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.maxBackoff()).isEqualTo(Duration.ofMinutes(3));
        assertThat(config.brokerRetryFrom()).isEqualTo(Duration.ofSeconds(20));
        assertThat(config.drainTimeout()).isEqualTo(Duration.ofSeconds(4));
        assertThat(config.idleGroupTimeout()).isEqualTo(Duration.ofSeconds(45));
        assertThat(config.commitInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(config.limits("other")).isEqualTo(new GroupLimits(300, 40));
        assertThat(config.limits("billing")).isEqualTo(new GroupLimits(10, 20));
        assertThat(config.limits("audit")).as("an unset per-group value takes the proxy-wide one").isEqualTo(new GroupLimits(5, 40));
        assertThat(config.serverLimits()).isEqualTo(GrpcServerLimits.DEFAULTS.toBuilder().maxConnections(77)
                .handshakeTimeout(Duration.ofSeconds(3)).keepAlive(GrpcServerLimits.DEFAULTS.keepAliveTime(), Duration.ofSeconds(5))
                .build());
    }

    @Test
    void theKeyStorePasswordComesFromThePropertyOrElseTheNamedEnvironmentVariable() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens.properties"), "app=12345678\n");
        Map<String, String> base = Map.of("lanemq.proxy.config-location", "file:/p.yaml",
                "lanemq.proxy.tokens-file", tokens.toString(), "lanemq.proxy.tls-key-store", "/etc/proxy.p12");
        Map<String, String> withPassword = new java.util.HashMap<>(base);
        withPassword.put("lanemq.proxy.tls-key-store-password", "changeit");
        assertThat(bind(withPassword).toProxyConfig().keyStorePassword()).containsExactly("changeit".toCharArray());
        Map<String, String> fromEnv = new java.util.HashMap<>(base);
        fromEnv.put("lanemq.proxy.tls-key-store-password-env", "PATH");
        assertThat(new String(bind(fromEnv).toProxyConfig().keyStorePassword())).isEqualTo(System.getenv("PATH"));
    }

    @Test
    void aBadValueFailsStartupWithAMessageNamingTheProperty() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens.properties"), "app=12345678\n");
        List<String> valid = List.of("lanemq.proxy.config-location=file:/p.yaml", "lanemq.proxy.plaintext=true",
                "lanemq.proxy.tokens-file=" + tokens);
        assertStartupFails(valid, "lanemq.proxy.ack-timeout=-1s", "lanemq.proxy.ack-timeout: ackTimeout must be positive");
        assertStartupFails(valid, "lanemq.proxy.tokens-file=" + dir.resolve("missing.properties"),
                "lanemq.proxy.tokens-file: cannot read the tokens file " + dir.resolve("missing.properties"));
        assertStartupFails(valid, "lanemq.proxy.listen=localhost", "lanemq.proxy.listen: takes host:port, got 'localhost'");
        assertStartupFails(valid, "lanemq.proxy.max-backoff=10ms", "lanemq.proxy.max-backoff: must not be below lanemq.proxy.initial-backoff");
        assertStartupFails(valid, "lanemq.proxy.broker-retry-from=0", "lanemq.proxy.broker-retry-from: brokerRetryFrom must be positive");
        assertStartupFails(valid, "lanemq.proxy.initial-backoff=-1ms", "lanemq.proxy.initial-backoff: backoff must satisfy");
        assertStartupFails(valid, "lanemq.proxy.ack-timeout=soon", "Failed to bind properties under 'lanemq.proxy.ack-timeout'");
        assertStartupFails(valid, "lanemq.proxy.group-limits.billing.max-in-flight=0",
                "lanemq.proxy.group-limits.billing: maxInFlight must be at least 1");
        assertStartupFails(valid, "lanemq.proxy.plaintext=false", "lanemq.proxy.tls-key-store: is required");
        assertStartupFails(valid, "lanemq.proxy.grpc.max-connections=0",
                "lanemq.proxy.grpc.max-connections: GrpcServerLimits.maxConnections must be at least 1, was 0");
        assertStartupFails(List.of("lanemq.proxy.plaintext=true", "lanemq.proxy.tokens-file=" + tokens), "lanemq.proxy.proxy-id=p1",
                "lanemq.proxy.config-location: is required");
        assertStartupFails(valid, "lanemq.proxy.http-address=9464",
                "lanemq.proxy.http-address: the address must be HOST:PORT: 9464");
        assertStartupFails(valid, "lanemq.proxy.shutdown-grace=5s",
                "lanemq.proxy.shutdown-grace: must be longer than lanemq.proxy.drain-timeout (PT10S), was PT5S");
        Path shortToken = Files.writeString(dir.resolve("short.properties"), "app=short\n");
        assertStartupFails(valid, "lanemq.proxy.tokens-file=" + shortToken,
                "lanemq.proxy.tokens-file: token of application 'app' must have at least 8 characters");
    }

    private static void assertStartupFails(List<String> valid, String bad, String message) {
        List<String> properties = new ArrayList<>(valid);
        properties.add(bad);
        new ApplicationContextRunner()
                .withUserConfiguration(ProxyServiceConfiguration.class)
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withPropertyValues(properties.toArray(String[]::new))
                .run(context -> {
                    assertThat(context).as(bad).hasFailed();
                    // Ours (InvalidProxyPropertyException) or, for a value of the wrong type, Spring's binder's.
                    Throwable cause = context.getStartupFailure();
                    while (cause != null && !(cause instanceof InvalidProxyPropertyException || cause instanceof BindException)) {
                        cause = cause.getCause();
                    }
                    assertThat(cause).as(bad + " fails with " + context.getStartupFailure()).isNotNull();
                    assertThat(cause.getMessage()).as(bad).startsWith(message);
                    if (cause instanceof InvalidProxyPropertyException invalid) {
                        FailureAnalysis analysis = new InvalidProxyPropertyFailureAnalyzer().analyze(context.getStartupFailure());
                        assertThat(analysis.getDescription()).as(bad).contains(message);
                        assertThat(analysis.getAction()).as(bad).startsWith("Correct " + invalid.property());
                    }
                });
    }

    private static ProxyProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties)).bind("lanemq.proxy", ProxyProperties.class).get();
    }
}
