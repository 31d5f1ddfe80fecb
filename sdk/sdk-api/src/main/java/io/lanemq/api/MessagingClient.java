package io.lanemq.api;

import io.lanemq.api.spi.ClientProvider;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
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

    /**
     * Moves consumer group {@code consumerGroup} of {@code logicTopic}, on every cluster of the topic, to the first
     * message stored at or after {@code to}, or to the end of the topic when {@code to} is empty (skipping what waits):
     * for replaying a day after a bad deployment, or for skipping a backlog. Where the group has live members the
     * brokers tell them (every instance's consumers on that cluster), and they move without a restart; where it has none, the committed offsets are written, and the next
     * member starts from them. Messages in flight at the move may still be processed once more.
     *
     * <pre>{@code
     * SeekResult result = client.seek("order-paid", "billing", Optional.of(Instant.parse("2026-11-27T08:00:00Z")));
     * if (!result.complete()) { ... }          // a cluster down or refusing: seek again when it is back
     * }</pre>
     *
     * <p>A cluster that fails does not stop the others; its failure is in the result. RocketMQ's members stop about
     * 10 s while they move. A {@linkplain Consumer#pause() paused} consumer stays paused, though its RocketMQ client
     * fetches again after the move (what it fetches is held until it resumes).
     *
     * @throws UnknownTopicException the logic topic, or the group on it, is not configured
     * @throws InvalidConfigurationException the group is in PROXY mode (not supported: the consumer proxy keeps its
     *                                       own offsets)
     * @throws MessagingException no cluster could be reset
     */
    SeekResult seek(String logicTopic, String consumerGroup, Optional<Instant> to) throws MessagingException;

    /**
     * The client's health now, for a health endpoint: its configuration source (location, when the configuration in
     * force took effect, the last rejected change and why) and, per cluster of that configuration, whether its sends
     * judge the cluster {@linkplain ClientHealth.ClusterState#UP up}, {@linkplain ClientHealth.ClusterState#DOWN down}
     * or not at all yet.
     *
     * <p>"Up" and "down" are the routing's own judgement from this client's sends, which it already keeps to pick a
     * cluster for each send: a cluster is down once its sends failed or went unanswered until the failover took it out
     * of rotation, and until a connection to one of its name servers succeeds again. Nothing is sent or probed to
     * answer this call, so it is cheap and never blocks on a broker; the price is that a client that has not sent
     * (one that only consumes) knows nothing of its clusters, and says so
     * ({@link ClientHealth.ClusterState#UNKNOWN}).
     *
     * <p>Thread-safe; may be called at any time, also after {@link #close()} (it then shows the last state). The
     * parts are read one after another from live state, so a reload or failover happening meanwhile may show in one
     * part and not yet in another.
     *
     * <pre>{@code
     * ClientHealth health = client.health();
     * boolean reloadRejected = health.configuration().lastRejection().isPresent();
     * }</pre>
     */
    ClientHealth health();

    @Override
    void close();
}
