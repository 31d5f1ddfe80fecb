package io.lanemq.core.internal.produce;

import io.lanemq.api.Message;
import io.lanemq.api.TransactionChecker;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigRef;
import io.lanemq.config.ProducerConfig;
import io.lanemq.config.TopicRoute;
import io.lanemq.core.internal.ClientContext;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.core.internal.routing.FailoverClusterChooser;
import io.lanemq.testkit.memory.MemoryBinding;
import io.lanemq.support.Clocks;
import io.lanemq.support.Ticker;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link RoutingProducer} of group {@code group} on two in-memory clusters, {@code cluster-a} (idc-a) and
 * {@code cluster-b} (idc-b), built as the client builds it; closes all it built, binding included.
 */
final class ProducerFixture implements AutoCloseable {
    static final String TOPIC = "orders";

    final MemoryBinding binding = new MemoryBinding();
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<AutoCloseable> closing = new ArrayList<>();
    private PlatformConfigRef ref;
    private RoutingProducer last;

    static PlatformConfig.Builder twoClusters(ProducerConfig producer) {
        return PlatformConfig.builder()
                .cluster(new ClusterConfig("cluster-a", "idc-a", "127.0.0.1:1", Map.of()))
                .cluster(new ClusterConfig("cluster-b", "idc-b", "127.0.0.1:2", Map.of()))
                .producer(producer);
    }

    static PlatformConfig config(ProducerConfig producer, List<TopicRoute> routes) throws InvalidPlatformConfigException {
        return twoClusters(producer).topic(new LogicTopicConfig(TOPIC, routes, Map.of())).build();
    }

    RoutingProducer producer(PlatformConfig config) throws Exception {
        return producer(config, Optional.empty());
    }

    RoutingProducer producer(PlatformConfig config, Optional<TransactionChecker> checker) throws Exception {
        ref = new PlatformConfigRef(config);
        SdkMetrics metrics = new SdkMetrics(registry, "test");
        FailoverClusterChooser chooser = new FailoverClusterChooser(ref, metrics, Ticker.system(), "test");
        ClusterProducers clusters = new ClusterProducers("group", checker, ref, binding, metrics);
        clusters.startAll();
        RoutingProducer producer = new RoutingProducer(new ClientContext(ref, metrics, Clocks.system(), ObservationRegistry.NOOP),
                clusters, chooser, new TopicRateLimits(), new ContextStamp(Optional.empty()), closed -> { });
        closing.add(producer);
        closing.add(chooser);
        last = producer;
        return producer;
    }

    /** A configuration reload, applied to the newest producer as the client applies it. */
    void reload(PlatformConfig next) {
        PlatformConfig previous = ref.current();
        ref.swap(next);
        last.apply(previous, next);
    }

    static Message message() {
        return Message.builder(TOPIC).body("x".getBytes(StandardCharsets.UTF_8)).build();
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
        binding.close();
    }
}
