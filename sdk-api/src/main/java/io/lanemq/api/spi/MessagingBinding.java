package io.lanemq.api.spi;

import io.lanemq.api.MessagingException;

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

    /** Creates and starts a consumer of one physical topic on one cluster. */
    BoundConsumer createConsumer(BoundConsumerSpec spec, BoundListener listener) throws MessagingException;
}
