package io.lanemq.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.spi.ClusterEndpoint;
import java.util.Map;
import org.apache.rocketmq.client.ClientConfig;
import org.junit.jupiter.api.Test;

class EndpointTuningTest {

    private static ClusterEndpoint endpoint(Map<String, String> properties) {
        return new ClusterEndpoint("idc-a-main", "idc-a", "127.0.0.1:9876", properties);
    }

    @Test
    void defaultsLeaveRocketMqDefaultsAlone() throws Exception {
        EndpointTuning settings = EndpointTuning.of(endpoint(Map.of()));
        assertThat(settings.retriesWithinCluster()).isEqualTo(1);
        assertThat(settings.heartbeatBrokerIntervalMs()).isEmpty();
        assertThat(settings.pullBatchSize()).isEmpty();

        ClientConfig client = new ClientConfig();
        int heartbeat = client.getHeartbeatBrokerInterval();
        settings.applyTo(client);
        assertThat(client.getHeartbeatBrokerInterval()).isEqualTo(heartbeat);
    }

    @Test
    void parsesAndAppliesEveryProperty() throws Exception {
        EndpointTuning settings = EndpointTuning.of(endpoint(Map.of(
                "rocketmq.heartbeatBrokerIntervalMs", "1000",
                "rocketmq.pollNameServerIntervalMs", " 500 ",
                "rocketmq.persistConsumerOffsetIntervalMs", "700",
                "rocketmq.retriesWithinCluster", "0",
                "rocketmq.pullBatchSize", "64",
                "rocketmq.shutdownAwaitMs", "0",
                "kafka.linger.ms", "5")));
        ClientConfig client = new ClientConfig();
        settings.applyTo(client);

        assertThat(client.getHeartbeatBrokerInterval()).isEqualTo(1000);
        assertThat(client.getPollNameServerInterval()).isEqualTo(500);
        assertThat(client.getPersistConsumerOffsetInterval()).isEqualTo(700);
        assertThat(settings.retriesWithinCluster()).isZero();
        assertThat(settings.pullBatchSize()).hasValue(64);
        assertThat(settings.shutdownAwaitMs()).isZero();
    }

    @Test
    void rejectsANonNumberNamingThePropertyAndCluster() {
        assertThatThrownBy(() -> EndpointTuning.of(endpoint(Map.of("rocketmq.heartbeatBrokerIntervalMs", "1s"))))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("'rocketmq.heartbeatBrokerIntervalMs'")
                .hasMessageContaining("'idc-a-main'")
                .hasMessageContaining("'1s'");
    }

    @Test
    void rejectsValuesOutOfRange() {
        assertThatThrownBy(() -> EndpointTuning.of(endpoint(Map.of("rocketmq.pullBatchSize", "2000"))))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("'rocketmq.pullBatchSize'")
                .hasMessageContaining("from 1 to 1024");
        assertThatThrownBy(() -> EndpointTuning.of(endpoint(Map.of("rocketmq.retriesWithinCluster", "-1"))))
                .hasMessageContaining("'rocketmq.retriesWithinCluster'");
        assertThatThrownBy(() -> EndpointTuning.of(endpoint(Map.of("rocketmq.pollNameServerIntervalMs", "0"))))
                .hasMessageContaining("'rocketmq.pollNameServerIntervalMs'")
                .hasMessageContaining(">= 1");
    }

    @Test
    void rejectsAMisspeltRocketMqProperty() {
        assertThatThrownBy(() -> EndpointTuning.of(endpoint(Map.of("rocketmq.heartbeatIntervalMs", "1000"))))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("unknown endpoint property 'rocketmq.heartbeatIntervalMs'")
                .hasMessageContaining("rocketmq.heartbeatBrokerIntervalMs");
    }
}
