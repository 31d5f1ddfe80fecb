package io.lanemq.core.produce;

import io.lanemq.api.MessagingException;
import io.lanemq.api.TransactionChecker;
import io.lanemq.api.TransactionResolution;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.api.spi.BoundProducer;
import io.lanemq.api.spi.BoundProducerSpec;
import io.lanemq.api.spi.MessagingBinding;
import io.lanemq.api.spi.TransactionCheckHandler;
import io.lanemq.core.config.ClusterConfig;
import io.lanemq.core.config.PlatformConfig;
import io.lanemq.core.config.PlatformConfigRef;
import io.lanemq.core.consume.DeliveredMessage;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One bound producer per cluster for one producer group, started up front for every configured
 * cluster so the first send pays no start-up and a cluster that cannot even start is reported
 * when the producer is created.
 */
public final class ClusterProducers implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ClusterProducers.class);

    private final String producerGroup;
    private final Optional<TransactionChecker> checker;
    private final PlatformConfigRef config;
    private final MessagingBinding binding;
    private final Map<String, BoundProducer> byCluster = new ConcurrentHashMap<>();

    public ClusterProducers(String producerGroup, Optional<TransactionChecker> checker, PlatformConfigRef config,
                            MessagingBinding binding) {
        this.producerGroup = producerGroup;
        this.checker = checker;
        this.config = config;
        this.binding = binding;
    }

    /** Starts a producer on every cluster of the current configuration. */
    public void startAll() throws MessagingException {
        for (String cluster : config.current().clusters().keySet()) {
            get(cluster);
        }
    }

    BoundProducer get(String cluster) throws MessagingException {
        BoundProducer existing = byCluster.get(cluster);
        if (existing != null) {
            return existing;
        }
        synchronized (byCluster) {
            BoundProducer raced = byCluster.get(cluster);
            if (raced != null) {
                return raced;
            }
            BoundProducer created = binding.createProducer(spec(config.current(), config.current().cluster(cluster)));
            byCluster.put(cluster, created);
            return created;
        }
    }

    private BoundProducerSpec spec(PlatformConfig snapshot, ClusterConfig cluster) {
        Optional<TransactionCheckHandler> handler = checker.map(c -> prepared -> check(c, cluster.name(), prepared));
        return new BoundProducerSpec(cluster.endpoint(), producerGroup, snapshot.producer().sendTimeout(),
                snapshot.producer().maxBodyBytes(), handler);
    }

    private TransactionResolution check(TransactionChecker checker, String cluster, BoundMessage prepared) {
        String logicTopic = config.current().topicOf(cluster, prepared.topic())
                .map(t -> t.name()).orElse(prepared.topic());
        try {
            TransactionResolution resolution = checker.check(new DeliveredMessage(logicTopic, cluster, prepared));
            return resolution == null ? TransactionResolution.UNKNOWN : resolution;
        } catch (RuntimeException e) {
            log.warn("transaction checker failed for message {} [logicTopic={}, cluster={}]; the broker will ask again",
                    prepared.messageId(), logicTopic, cluster, e);
            return TransactionResolution.UNKNOWN;
        }
    }

    @Override
    public void close() {
        synchronized (byCluster) {
            byCluster.values().forEach(BoundProducer::close);
            byCluster.clear();
        }
    }
}
