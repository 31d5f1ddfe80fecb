package io.lanemq.api;

/**
 * A running subscription, created by {@link MessagingClient#subscribe(Subscription, MessageListener)}.
 * It consumes from both clusters of its logic topic at once, so losing one IDC does not stop it:
 * from the brokers itself, or pushed by the consumer proxy, as the platform configuration sets the
 * group's mode (which may change while it runs, without a restart).
 *
 * <p>{@link #close()} stops fetching, lets the messages already handed to the listener finish,
 * and commits their offsets; messages not yet acknowledged are delivered again to the group's
 * other consumers. Thread-safe; closing twice is harmless.
 *
 * <p>The name shares its simple name with {@code java.util.function.Consumer} on purpose: it is the word every
 * messaging client uses for this object (Kafka's, Pulsar's and RocketMQ's clients all have a {@code Consumer}), so
 * it is the one a user looks for; the two meet only in a file that imports both, where one is written in full.
 */
public interface Consumer extends AutoCloseable {
    Subscription subscription();

    @Override
    void close();
}
