package io.lanemq.testkit.memory;

import io.lanemq.api.MessagingException;
import io.lanemq.api.spi.BoundConsumer;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.api.spi.BoundListener;
import io.lanemq.api.spi.BoundProducer;
import io.lanemq.api.spi.BoundProducerSpec;
import io.lanemq.api.spi.ClusterEndpoint;
import io.lanemq.api.spi.MessagingBinding;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The binding SPI in memory: each cluster named in a spec is a {@link MemoryCluster}, created on first use, which
 * a test also reaches through {@link #cluster(String)} to inject faults and see what was sent where.
 *
 * <pre>{@code
 * MemoryBinding binding = new MemoryBinding();
 * binding.cluster("cluster-b").silence();            // idc-b answers nothing
 * // ... build the producer under test on `binding`, send ...
 * assertThat(binding.cluster("cluster-a").stored("orders")).hasSize(1);
 * binding.close();
 * }</pre>
 *
 * <p>Thread-safe. {@link #close()} stops every consumer and producer it created and its timer thread.
 */
public final class MemoryBinding implements MessagingBinding, AutoCloseable {
    private final Map<String, MemoryCluster> clusters = new ConcurrentHashMap<>();
    private final AtomicLong messageIds = new AtomicLong();
    private final List<AutoCloseable> created = new CopyOnWriteArrayList<>();
    /** Answers delayed sends; one daemon thread. */
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "lanemq-memory-binding-timers");
        thread.setDaemon(true);
        return thread;
    });

    @Override
    public String name() {
        return "memory";
    }

    /** Ids as the SDK gives them to every attempt of a send, unique within this binding. */
    @Override
    public Optional<String> newMessageId() {
        return Optional.of("msg-" + messageIds.incrementAndGet());
    }

    /** The cluster named {@code name}, created empty and healthy on first use. */
    public MemoryCluster cluster(String name) {
        return clusters.computeIfAbsent(name, MemoryCluster::new);
    }

    @Override
    public BoundProducer createProducer(BoundProducerSpec spec) throws MessagingException {
        MemoryCluster cluster = cluster(spec.cluster().clusterName());
        cluster.checkStart("producer group '" + spec.producerGroup() + "'");
        MemoryProducer producer = new MemoryProducer(cluster, spec, timers);
        cluster.register(producer);
        created.add(producer);
        return producer;
    }

    /** Empty unless a test made the cluster {@link MemoryCluster#unreachable(String) unreachable}. */
    @Override
    public Optional<String> unreachable(ClusterEndpoint cluster) {
        return cluster(cluster.clusterName()).unreachableReason();
    }

    @Override
    public BoundConsumer createConsumer(BoundConsumerSpec spec, BoundListener listener) throws MessagingException {
        MemoryConsumer consumer = MemoryConsumer.start(cluster(spec.cluster().clusterName()), spec, listener);
        created.add(consumer);
        return consumer;
    }

    @Override
    public void close() {
        for (AutoCloseable closeable : created) {
            try {
                closeable.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing " + closeable + " failed", e);
            }
        }
        timers.shutdownNow();
    }
}
