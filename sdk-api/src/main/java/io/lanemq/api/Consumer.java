package io.lanemq.api;

/**
 * A running subscription, created by {@link MessagingClient#subscribe(Subscription, MessageListener)}.
 * It consumes from both clusters of its logic topic at once, so losing one IDC does not stop it.
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
