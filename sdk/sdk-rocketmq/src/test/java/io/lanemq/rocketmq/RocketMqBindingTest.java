package io.lanemq.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.api.spi.BoundProducerSpec;
import io.lanemq.api.spi.ClusterEndpoint;
import io.lanemq.api.spi.MessagingBinding;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class RocketMqBindingTest {
    private static final ClusterEndpoint MISSPELT = new ClusterEndpoint("idc-a", "idc-a", "127.0.0.1:1",
            Map.of("rocketmq.heartbeatMs", "1000"));

    @Test
    void isFoundByServiceLoaderUnderItsName() {
        assertThat(ServiceLoader.load(MessagingBinding.class).stream().map(ServiceLoader.Provider::get))
                .anySatisfy(binding -> {
                    assertThat(binding).isInstanceOf(RocketMqBinding.class);
                    assertThat(binding.name()).isEqualTo("rocketmq");
                });
    }

    @Test
    void badEndpointPropertiesFailBeforeAnythingStarts() {
        RocketMqBinding binding = new RocketMqBinding();
        assertThatThrownBy(() -> binding.createProducer(new BoundProducerSpec(MISSPELT, "p", Duration.ofSeconds(3), 1024,
                Optional.empty())))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("rocketmq.heartbeatMs");
        assertThatThrownBy(() -> binding.createConsumer(BoundConsumerSpec.builder(MISSPELT, "c", "t").consumeThreads(1)
                .maxDeliveryAttempts(3).build(), message -> null))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("rocketmq.heartbeatMs");
    }
}
