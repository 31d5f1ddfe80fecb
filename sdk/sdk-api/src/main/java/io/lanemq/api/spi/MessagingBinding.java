package io.lanemq.api.spi;

import io.lanemq.api.MessagingException;
import java.util.Optional;

/**
 * One message queue product, e.g. RocketMQ. Registered in {@code META-INF/services} and chosen by
 * {@link #name()}. Implementations are thread-safe; each producer and consumer they create talks to
 * exactly one cluster and must not share client state with another cluster's.
 */
public interface MessagingBinding {
    /** The name the platform configuration uses to choose this binding, e.g. {@code rocketmq}. */
    String name();

    /** Creates and starts a producer on one cluster. */
    BoundProducer createProducer(BoundProducerSpec spec) throws MessagingException;

    /**
     * A new message id in the product's own format (so its tools can look a message up by it), for the SDK to give
     * every attempt of one send; empty when the product assigns ids itself and cannot take one given.
     */
    default Optional<String> newMessageId() {
        return Optional.empty();
    }

    /**
     * Why {@code cluster} cannot be reached now (none of its access points, e.g. RocketMQ's name servers, accepts a
     * connection), asked when a producer starts so that a cluster down or silent at that moment is out of its sends'
     * rotation from the first send; empty when it can be reached or the binding cannot tell (the default). May block
     * about half a second on a silent network; thread-safe.
     */
    default Optional<String> unreachable(ClusterEndpoint cluster) {
        return Optional.empty();
    }

    /**
     * Moves {@code consumerGroup} on {@code topic} of {@code cluster} to the first message stored at or after
     * {@code timestampMillis}, or to the end of every queue when it is {@link #LATEST}; live members of the group are
     * told to move, and without any the committed offsets are written. The default refuses: the binding cannot.
     */
    default BoundOffsetReset resetOffsets(ClusterEndpoint cluster, String consumerGroup, String topic, long timestampMillis)
            throws MessagingException {
        throw new MessagingException("binding '" + name() + "' cannot reset offsets", null, cluster.clusterName());
    }

    /** {@link #resetOffsets}'s timestamp for the end of every queue. */
    long LATEST = -1;

    /** Creates and starts a consumer of one physical topic on one cluster. */
    BoundConsumer createConsumer(BoundConsumerSpec spec, BoundListener listener) throws MessagingException;
}
