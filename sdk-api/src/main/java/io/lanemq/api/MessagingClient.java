package io.lanemq.api;

import io.lanemq.api.spi.ClientProvider;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * The application's entry point: reads the platform configuration, then creates producers and
 * consumers on logic topics. One client per application is enough; it is thread-safe.
 *
 * <p>{@link #close()} closes every producer and consumer it created.
 *
 * <pre>{@code
 * try (MessagingClient client = MessagingClient.create(
 *         ClientOptions.builder("billing").configLocation("file:/etc/lanemq/platform.yaml").build())) {
 *     client.subscribe(Subscription.builder("order-paid", "billing").build(),
 *             message -> ConsumeResult.SUCCESS);
 *     ...
 * }
 * }</pre>
 */
public interface MessagingClient extends AutoCloseable {
    /**
     * Creates a client with the SDK core found on the class path.
     *
     * @throws InvalidConfigurationException the platform configuration cannot be read or is invalid,
     *                                       or no SDK core (or more than one) is on the class path
     */
    static MessagingClient create(ClientOptions options) throws MessagingException {
        List<ClientProvider> providers = ServiceLoader.load(ClientProvider.class).stream()
                .map(ServiceLoader.Provider::get).collect(Collectors.toList());
        if (providers.size() != 1) {
            throw new InvalidConfigurationException("expected exactly one " + ClientProvider.class.getName()
                    + " on the class path (add sdk-core), found " + providers.size() + ": "
                    + providers.stream().map(p -> p.getClass().getName()).collect(Collectors.joining(", ")));
        }
        return providers.get(0).create(options);
    }

    /** Creates a producer; it can send to every logic topic of the configuration. */
    Producer createProducer(ProducerOptions options) throws MessagingException;

    /**
     * Starts consuming: the listener receives messages of the subscription's logic topic from
     * both of its clusters until the returned consumer is closed.
     *
     * @throws UnknownTopicException the logic topic, or the group on it, is not configured
     */
    Consumer subscribe(Subscription subscription, MessageListener listener) throws MessagingException;

    /**
     * Starts consuming in batches: as {@link #subscribe(Subscription, MessageListener)}, with the messages that the
     * consumer's listener threads hold at once handed over together (see {@link BatchMessageListener}).
     *
     * @throws UnknownTopicException the logic topic, or the group on it, is not configured
     */
    Consumer subscribe(Subscription subscription, Batching batching, BatchMessageListener listener)
            throws MessagingException;

    @Override
    void close();
}
