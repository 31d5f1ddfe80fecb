package io.lanemq.core.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.Message;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.config.ConfigSources;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.FakeClock;
import io.lanemq.support.Ticker;
import io.lanemq.testkit.memory.MemoryBinding;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every meter of a client carries the platform environment it runs in: the dashboards' {@code $environment}. */
class ClientMetersEnvironmentTest {
    private static final String PLATFORM = CoreClientHealthTest.PLATFORM + """
            environments:
              staging:
                physicalTopicSuffix: _staging
            """;

    @TempDir
    Path dir;

    @Test
    void aClientInStagingTagsEveryMeterWithStaging() throws Exception {
        assertThat(environmentsOfMeters(ClientOptions.builder("env-test").environment("staging"))).containsOnly("staging");
    }

    @Test
    void aClientNamingNoEnvironmentTagsTheDeploymentsOrDefault() throws Exception {
        assertThat(environmentsOfMeters(ClientOptions.builder("env-test")))
                .as("LANEMQ_ENVIRONMENT or lanemq.environment where the deployment names one, else default")
                .containsOnly(ConfigSources.deploymentEnvironment());
    }

    /** The environment tag of every meter after a send (null for a meter without one). */
    private java.util.List<String> environmentsOfMeters(ClientOptions.Builder options) throws Exception {
        Path config = Files.writeString(dir.resolve("platform.yaml"), PLATFORM, StandardCharsets.UTF_8);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (MemoryBinding binding = new MemoryBinding();
             CoreMessagingClient client = CoreMessagingClient.start(options.configLocation("file:" + config).build(), registry,
                     ObservationRegistry.NOOP, Ticker.system(), new FakeClock(), Optional.of(binding))) {
            Producer producer = client.createProducer(ProducerOptions.defaults());
            producer.send(Message.builder("orders").body("o".getBytes(StandardCharsets.UTF_8)).build());
            java.util.List<Meter> meters = registry.getMeters().stream()
                    .filter(m -> m.getId().getTag(SdkMetrics.TAG_APPLICATION) != null).toList();
            assertThat(meters).as("the client's meters").extracting(m -> m.getId().getName()).contains(SdkMetrics.SENDS);
            return meters.stream().map(m -> m.getId().getTag(SdkMetrics.TAG_ENVIRONMENT)).toList();
        }
    }
}
