package io.lanemq.core.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.Message;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.config.Canary;
import io.lanemq.config.CanaryTarget;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.FakeClock;
import io.lanemq.support.Ticker;
import io.lanemq.testkit.memory.MemoryBinding;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients of one application under a canary beside their configuration file: the chosen instance sends by the
 * candidate's weights and says so in its gauges, the other keeps the configuration's.
 */
class ConfigCanaryClientTest {
    private static final String ALL_TO_A = weights(100, 0);
    private static final String ALL_TO_B = weights(0, 100);

    private static String weights(int a, int b) {
        return """
                clusters:
                  cluster-a: { idc: idc-a, nameServer: "127.0.0.1:1" }
                  cluster-b: { idc: idc-b, nameServer: "127.0.0.1:2" }
                producer: { sendTimeoutMs: 1000, failoverAfterMs: 200 }
                topics:
                  orders:
                    routes:
                      - { cluster: cluster-a, physicalTopic: orders_a, weight: %d }
                      - { cluster: cluster-b, physicalTopic: orders_b, weight: %d }
                """.formatted(a, b);
    }

    @TempDir
    Path dir;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    private record Instance(MemoryBinding binding, SimpleMeterRegistry registry, Producer producer) {
        /** Sends 20 messages and returns how many went to cluster-b. */
        long sentToB() throws Exception {
            int before = binding.cluster("cluster-b").sends().size();
            for (int i = 0; i < 20; i++) {
                producer.send(Message.builder("orders").body("o".getBytes(StandardCharsets.UTF_8)).build());
            }
            return binding.cluster("cluster-b").sends().size() - before;
        }

        double gauge(String name) {
            return registry.get(name).gauge().value();
        }
    }

    private Instance start(Path config, String instanceId) throws Exception {
        MemoryBinding binding = new MemoryBinding();
        closeables.add(binding);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        CoreMessagingClient client = CoreMessagingClient.start(ClientOptions.builder("orders-service")
                .configLocation("file:" + config).instanceId(instanceId).noConfigSnapshots().build(), registry,
                ObservationRegistry.NOOP, Ticker.system(), new FakeClock(), Optional.of(binding));
        closeables.add(client);
        return new Instance(binding, registry, client.createProducer(ProducerOptions.defaults()));
    }

    @Test
    void theChosenInstanceSendsByTheCandidateAndReturnsWhenTheCanaryIsAbandoned() throws Exception {
        Path config = Files.writeString(dir.resolve("platform.yaml"), ALL_TO_A);
        Path canary = dir.resolve("platform.yaml.canary");
        Instance chosen = start(config, "orders-1");
        Instance other = start(config, "orders-2");
        assertThat(chosen.sentToB()).isZero();

        Files.writeString(canary, new Canary(0, new CanaryTarget(List.of("orders-1"), List.of(), 0), ALL_TO_B).toText());
        await().atMost(Duration.ofSeconds(3)).until(() -> chosen.gauge(SdkMetrics.CONFIG_CANARY) == 1);

        assertThat(chosen.sentToB()).as("the chosen instance follows the candidate").isEqualTo(20);
        assertThat(other.sentToB()).as("the other keeps the configuration").isZero();
        assertThat(other.gauge(SdkMetrics.CONFIG_CANARY)).isZero();

        Files.delete(canary);
        await().atMost(Duration.ofSeconds(3)).until(() -> chosen.gauge(SdkMetrics.CONFIG_CANARY) == 0);
        assertThat(chosen.sentToB()).as("abandoned: back on the configuration").isZero();
    }

    @Test
    void anInstanceRestartingDuringTheCanaryStartsOnTheCandidate() throws Exception {
        Path config = Files.writeString(dir.resolve("platform.yaml"), ALL_TO_A);
        Files.writeString(dir.resolve("platform.yaml.canary"),
                new Canary(0, new CanaryTarget(List.of("orders-1"), List.of(), 0), ALL_TO_B).toText());

        Instance chosen = start(config, "orders-1");

        assertThat(chosen.gauge(SdkMetrics.CONFIG_CANARY)).isEqualTo(1);
        assertThat(chosen.sentToB()).isEqualTo(20);
    }
}
