package io.lanemq.core.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.api.spi.BoundProducerSpec;
import io.lanemq.api.spi.ClusterCredentials;
import io.lanemq.api.spi.ClusterEndpoint;
import io.lanemq.testkit.memory.MemoryBinding;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The application's client properties reach every producer and consumer the binding creates, over the platform's. */
class ApplicationTunedBindingTest {
    private static final ClusterEndpoint CLUSTER_A = new ClusterEndpoint("cluster-a", "idc-a", "127.0.0.1:9876",
            Map.of("rocketmq.pullBatchSize", "32", "rocketmq.heartbeatBrokerIntervalMs", "30000"));
    private final MemoryBinding memory = new MemoryBinding();

    @AfterEach
    void close() {
        memory.close();
    }

    @Test
    void theApplicationsPropertiesAreLaidOverTheClustersAndWinForAKeyBothSet() throws Exception {
        var binding = ApplicationTunedBinding.of(memory, Map.of("rocketmq.pullBatchSize", "256", "rocketmq.shutdownAwaitMs", "0"));

        binding.createProducer(new BoundProducerSpec(CLUSTER_A, "checkout", Duration.ofSeconds(3), 4096, Optional.empty()));
        binding.createConsumer(BoundConsumerSpec.builder(CLUSTER_A, "billing", "orders").build(), message -> ConsumeResult.SUCCESS)
                .close();

        Map<String, String> expected = Map.of("rocketmq.pullBatchSize", "256", "rocketmq.shutdownAwaitMs", "0",
                "rocketmq.heartbeatBrokerIntervalMs", "30000");
        assertThat(memory.cluster("cluster-a").producerSpecs()).singleElement()
                .satisfies(spec -> assertThat(spec.cluster().properties()).isEqualTo(expected));
        assertThat(memory.cluster("cluster-a").consumerSpecs()).singleElement()
                .satisfies(spec -> assertThat(spec.cluster().properties()).isEqualTo(expected));
    }

    @Test
    void aTunedEndpointKeepsTheClustersCredentialsAndTls() throws Exception {
        var credentials = new ClusterCredentials.Environment("A_ACCESS_KEY", "A_SECRET_KEY");
        ClusterEndpoint secured = CLUSTER_A.secured(Optional.of(credentials), true);
        var binding = ApplicationTunedBinding.of(memory, Map.of("rocketmq.pullBatchSize", "256"));

        binding.createProducer(new BoundProducerSpec(secured, "checkout", Duration.ofSeconds(3), 4096, Optional.empty()));

        assertThat(memory.cluster("cluster-a").producerSpecs()).singleElement().satisfies(spec -> {
            assertThat(spec.cluster().credentials()).contains(credentials);
            assertThat(spec.cluster().tls()).isTrue();
        });
    }

    @Test
    void withoutApplicationPropertiesTheBindingIsUsedAsItIs() {
        assertThat(ApplicationTunedBinding.of(memory, Map.of())).isSameAs(memory);
    }
}
