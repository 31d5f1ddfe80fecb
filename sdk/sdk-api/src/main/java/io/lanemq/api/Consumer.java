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

    /**
     * Stops taking new messages until {@link #resume()}, without leaving the group: the consumer keeps its share of
     * the topic, so the group's other members do not take it over, and its messages wait on the brokers.
     *
     * <p>Messages the listener is processing when this is called finish and are committed as usual; it returns at
     * once, without waiting for them. In DIRECT mode the consumer stops fetching on every cluster, and the few
     * messages a fetch already under way brings (at most a fetch batch per queue) are held, not handed to the
     * listener, until {@link #resume()}; they are neither acknowledged nor sent back, so the pause itself delivers
     * nothing twice. In PROXY mode the consumer takes back the credits the proxy has not used: deliveries it had
     * already pushed are processed and acknowledged as usual, then nothing more comes. Pausing a paused consumer
     * does nothing. {@link #close()} while paused first hands the held messages to the listener, so that none comes
     * back as a failed attempt.
     *
     * <pre>{@code
     * consumer.pause();   // the downstream database is being migrated
     * ...
     * consumer.resume();  // everything sent meanwhile is delivered, none lost, none twice
     * }</pre>
     *
     * <p>Thread-safe; survives a change of the group's consumption mode (the new path starts paused).
     */
    void pause();

    /** Takes messages again after {@link #pause()}: held ones first, then fetching resumes. Does nothing unless paused. */
    void resume();

    /** Whether {@link #pause()} is in effect. */
    boolean paused();

    @Override
    void close();
}
