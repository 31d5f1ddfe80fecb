package io.lanemq.core.internal.consume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.MessagingException;
import io.lanemq.api.SeekResult;
import io.lanemq.api.UnknownTopicException;
import io.lanemq.api.spi.BoundConsumer;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.api.spi.BoundListener;
import io.lanemq.api.spi.BoundOffsetReset;
import io.lanemq.api.spi.BoundProducer;
import io.lanemq.api.spi.BoundProducerSpec;
import io.lanemq.api.spi.ClusterEndpoint;
import io.lanemq.api.spi.MessagingBinding;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.StartPosition;
import io.lanemq.config.TopicRoute;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** What a seek asks of each cluster, and how one cluster's failure is reported. */
class GroupSeekTest {
    private final List<String> resets = new CopyOnWriteArrayList<>();

    @Test
    void everyRouteIsMovedWithItsPhysicalTopicAndTheTimestampOrTheEnd() throws Exception {
        Instant to = Instant.parse("2026-11-27T08:00:00Z");

        SeekResult result = GroupSeek.seek(config(), binding(Set.of()), "orders", "billing", Optional.of(to));

        assertThat(resets).containsExactly("cluster-a orders_a billing " + to.toEpochMilli(),
                "cluster-b orders_b billing " + to.toEpochMilli());
        assertThat(result.complete()).isTrue();
        assertThat(result.clusters()).extracting(SeekResult.Cluster::queues).containsExactly(4, 4);

        resets.clear();
        GroupSeek.seek(config(), binding(Set.of()), "orders", "billing", Optional.empty());
        assertThat(resets).as("the end").containsExactly("cluster-a orders_a billing -1", "cluster-b orders_b billing -1");
    }

    @Test
    void aClusterThatFailsIsReportedAndTheOtherIsStillMoved() throws Exception {
        SeekResult result = GroupSeek.seek(config(), binding(Set.of("cluster-b")), "orders", "billing", Optional.empty());

        assertThat(result.complete()).isFalse();
        assertThat(result.clusters().get(0).failure()).isEmpty();
        assertThat(result.clusters().get(1).failure()).hasValueSatisfying(why -> assertThat(why).contains("cluster-b is down"));
        assertThat(resets).containsExactly("cluster-a orders_a billing -1");
    }

    @Test
    void whenNoClusterMovesTheSeekFailsWithEveryCause() {
        assertThatThrownBy(() -> GroupSeek.seek(config(), binding(Set.of("cluster-a", "cluster-b")), "orders", "billing",
                Optional.empty())).isInstanceOf(MessagingException.class).hasMessageContaining("cluster-a is down")
                .satisfies(e -> assertThat(e.getSuppressed()).hasSize(1));
    }

    @Test
    void anUndeclaredGroupIsRefusedNamingTheDeclaredOnes() {
        assertThatThrownBy(() -> GroupSeek.seek(config(), binding(Set.of()), "orders", "biling", Optional.empty()))
                .isInstanceOf(UnknownTopicException.class).hasMessageContaining("'biling' is not declared")
                .hasMessageContaining("[billing]");
        assertThat(resets).isEmpty();
    }

    private MessagingBinding binding(Set<String> down) {
        return new MessagingBinding() {
            @Override
            public String name() {
                return "recording";
            }

            @Override
            public BoundProducer createProducer(BoundProducerSpec spec) {
                throw new UnsupportedOperationException();
            }

            @Override
            public BoundConsumer createConsumer(BoundConsumerSpec spec, BoundListener listener) {
                throw new UnsupportedOperationException();
            }

            @Override
            public BoundOffsetReset resetOffsets(ClusterEndpoint cluster, String group, String topic, long timestamp)
                    throws MessagingException {
                if (down.contains(cluster.clusterName())) {
                    throw new MessagingException(cluster.clusterName() + " is down", null, cluster.clusterName());
                }
                resets.add(cluster.clusterName() + " " + topic + " " + group + " " + timestamp);
                return new BoundOffsetReset(4, true);
            }
        };
    }

    private static PlatformConfig config() throws Exception {
        return PlatformConfig.builder()
                .cluster(new ClusterConfig("cluster-a", "idc-a", "10.0.0.1:9876", Map.of()))
                .cluster(new ClusterConfig("cluster-b", "idc-b", "10.1.0.1:9876", Map.of()))
                .topic(new LogicTopicConfig("orders", List.of(new TopicRoute("cluster-a", "orders_a", 50),
                        new TopicRoute("cluster-b", "orders_b", 50)), Map.of("billing", new ConsumerConfig(2, 3, StartPosition.EARLIEST))))
                .build();
    }
}
