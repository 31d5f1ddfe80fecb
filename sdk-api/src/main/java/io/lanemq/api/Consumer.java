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
 */
public interface Consumer extends AutoCloseable {
    Subscription subscription();

    @Override
    void close();
}
