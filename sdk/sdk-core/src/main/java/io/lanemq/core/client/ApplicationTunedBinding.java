package io.lanemq.core.client;

import io.lanemq.api.MessagingException;
import io.lanemq.api.spi.BoundConsumer;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.api.spi.BoundListener;
import io.lanemq.api.spi.BoundProducer;
import io.lanemq.api.spi.BoundProducerSpec;
import io.lanemq.api.spi.ClusterEndpoint;
import io.lanemq.api.spi.MessagingBinding;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The binding with the application's {@link io.lanemq.api.ClientOptions#properties()} laid over every cluster's
 * endpoint properties: the platform configuration tunes a cluster for everyone, and one application may tune its own
 * clients further ({@code rocketmq.pullBatchSize} for a consumer that handles big batches). The application's value
 * wins for a key both set. The binding checks the keys it owns, so a misspelt one fails the producer or consumer
 * that would have used it, naming the key.
 */
final class ApplicationTunedBinding implements MessagingBinding {
    private final MessagingBinding binding;
    private final Map<String, String> properties;

    private ApplicationTunedBinding(MessagingBinding binding, Map<String, String> properties) {
        this.binding = binding;
        this.properties = Map.copyOf(properties);
    }

    /** {@code binding} itself when the application sets no property. */
    static MessagingBinding of(MessagingBinding binding, Map<String, String> properties) {
        return properties.isEmpty() ? binding : new ApplicationTunedBinding(binding, properties);
    }

    @Override
    public String name() {
        return binding.name();
    }

    @Override
    public BoundProducer createProducer(BoundProducerSpec spec) throws MessagingException {
        return binding.createProducer(new BoundProducerSpec(tuned(spec.cluster()), spec.producerGroup(), spec.sendTimeout(),
                spec.maxBodyBytes(), spec.transactionCheckHandler()));
    }

    @Override
    public BoundConsumer createConsumer(BoundConsumerSpec spec, BoundListener listener) throws MessagingException {
        return binding.createConsumer(new BoundConsumerSpec(tuned(spec.cluster()), spec.consumerGroup(), spec.topic(),
                spec.tagFilter(), spec.ordered(), spec.consumeThreads(), spec.maxDeliveryAttempts(), spec.startPosition(),
                spec.batchSize(), spec.drainTopics(), spec.memberTag(), spec.shadowTopics(), spec.retryBackoff()), listener);
    }

    @Override
    public java.util.Optional<String> unreachable(ClusterEndpoint cluster) {
        return binding.unreachable(cluster);
    }

    @Override
    public io.lanemq.api.spi.BoundOffsetReset resetOffsets(ClusterEndpoint cluster, String consumerGroup, String topic,
                                                          long timestampMillis) throws MessagingException {
        return binding.resetOffsets(tuned(cluster), consumerGroup, topic, timestampMillis);
    }

    private ClusterEndpoint tuned(ClusterEndpoint endpoint) {
        Map<String, String> merged = new LinkedHashMap<>(endpoint.properties());
        merged.putAll(properties);
        // Credentials and TLS travel with the endpoint: a tuned endpoint must still authenticate.
        return new ClusterEndpoint(endpoint.clusterName(), endpoint.idc(), endpoint.nameServerAddress(), merged,
                endpoint.credentials(), endpoint.tls());
    }

    @Override
    public String toString() {
        return binding.name() + " with application properties " + properties.keySet();
    }
}
