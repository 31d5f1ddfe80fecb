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

    /** Creates and starts a consumer of one physical topic on one cluster. */
    BoundConsumer createConsumer(BoundConsumerSpec spec, BoundListener listener) throws MessagingException;
}
