package io.lanemq.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.Deduplication;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlatformConfigWriterTest {
    @Test
    void writtenDocumentParsesBackToTheSameSnapshot() throws Exception {
        PlatformConfig original = PlatformConfig.builder()
                .binding("rocketmq")
                .cluster(new ClusterConfig("cluster-a", "idc-a", "127.0.0.1:9876", Map.of("rocketmq.pullBatchSize", "64")))
                .cluster(new ClusterConfig("cluster-b", "idc-b", "127.0.0.1:9877", Map.of()))
                .producer(new ProducerConfig(Duration.ofMillis(2500), 1024)
                        .withBatch(new BatchConfig(16, 65536, 3, Duration.ofMillis(2))).withMaxHeldBytes(1 << 20))
                .consumerDefaults(new ConsumerConfig(3, 7, StartPosition.EARLIEST))
                .topic(new LogicTopicConfig("order-paid",
                        List.of(new TopicRoute("cluster-a", "order_paid", 60), new TopicRoute("cluster-b", "order_paid", 40)),
                        Map.of("billing", new ConsumerConfig(2, 3, StartPosition.LATEST).withMode(ConsumptionMode.PROXY)
                                .withDeduplication(Duration.ofMinutes(5), Deduplication.Identity.FIRST_KEY)))
                        .withBatch(new BatchConfig(1, 4096, 1, Duration.ZERO)))
                .proxy(new ConsumerProxyConfig(List.of("127.0.0.1:7443"), java.nio.file.Path.of("/etc/lanemq/proxy-ca.pem")))
                .build();

        String yaml = new PlatformConfigWriter().toYaml(original);
        PlatformConfig parsed = new PlatformConfigParser().parse(yaml, "written.yaml");

        assertThat(parsed.binding()).isEqualTo(original.binding());
        assertThat(parsed.clusters()).isEqualTo(original.clusters());
        assertThat(parsed.topics()).isEqualTo(original.topics());
        assertThat(parsed.producer()).isEqualTo(original.producer());
        assertThat(parsed.consumerDefaults()).isEqualTo(original.consumerDefaults());
        assertThat(parsed.proxy()).isEqualTo(original.proxy());
    }
}
