package io.lanemq.spring;

import io.lanemq.api.Consumer;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.MessagingException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application's {@link LaneMqListener}s by id, and what an operator or the application does with them at run time:
 * {@link #pause(String)} and {@link #resume(String)} (the subscription stays a member of its group and keeps its share;
 * see {@link Consumer#pause()}), {@link #stop(String)} and {@link #start(String)} (the subscription is closed, its
 * messages in hand finished and committed, and subscribed anew).
 *
 * <pre>{@code
 * @Autowired LaneMqListenerRegistry listeners;
 *
 * listeners.pause("billing");        // the ledger database is being migrated
 * listeners.resume("billing");       // what was sent meanwhile is delivered, none lost, none twice
 * listeners.listeners();             // [billing RUNNING order-paid/billing, ...]
 * }</pre>
 *
 * <p>Thread-safe. An unknown id is refused with an {@link IllegalArgumentException} naming the known ones; pausing or
 * resuming a stopped listener with an {@link IllegalStateException}. The application context's start subscribes the
 * listeners whose {@link LaneMqListener#autoStartup()} is true, its stop closes them all.
 */
public class LaneMqListenerRegistry {
    private static final Logger log = LoggerFactory.getLogger(LaneMqListenerRegistry.class);

    /** Where a listener is. */
    public enum State {
        /** Subscribed and taking messages. */
        RUNNING,
        /** Subscribed, a member of its group, taking nothing until resumed. */
        PAUSED,
        /** Not subscribed: not started yet ({@code autoStartup = "false"}), or stopped. */
        STOPPED
    }

    /** One listener as it is now. */
    public record Listener(String id, String topic, String group, State state, boolean autoStartup) {
    }

    private final MessagingClient client;
    /** By id, sorted (so listings and errors read the same on every start); guarded by {@code this}. */
    private final Map<String, ListenerEndpoint> endpoints = new TreeMap<>();
    /** The running subscriptions by id, in start order; guarded by {@code this}. */
    private final Map<String, Consumer> running = new LinkedHashMap<>();

    public LaneMqListenerRegistry(MessagingClient client) {
        this.client = client;
    }

    /** Takes the checked endpoints of the application; called once, before any start. */
    synchronized void register(List<ListenerEndpoint> discovered) {
        discovered.forEach(endpoint -> endpoints.put(endpoint.id(), endpoint));
    }

    /** Every listener with its state, by id. */
    public synchronized List<Listener> listeners() {
        return endpoints.values().stream().map(this::describe).toList();
    }

    /** The listener {@code id} as it is now. */
    public synchronized Listener listener(String id) {
        return describe(endpoint(id));
    }

    /** Pauses listener {@code id}; does nothing when paused already (see {@link Consumer#pause()}). */
    public synchronized Listener pause(String id) {
        runningConsumer(id, "pause").pause();
        return listener(id);
    }

    /** Resumes listener {@code id}; does nothing unless paused. */
    public synchronized Listener resume(String id) {
        runningConsumer(id, "resume").resume();
        return listener(id);
    }

    /** Subscribes listener {@code id}; does nothing when it runs already. */
    public synchronized Listener start(String id) {
        ListenerEndpoint endpoint = endpoint(id);
        if (!running.containsKey(id)) {
            try {
                running.put(id, endpoint.subscribe(client));
            } catch (MessagingException e) {
                throw new IllegalStateException(endpoint + " cannot subscribe: " + e.getMessage(), e);
            }
            log.info("LaneMQ listener '{}' started", id);
        }
        return listener(id);
    }

    /** Closes listener {@code id}'s subscription, finishing and committing what it holds; does nothing when stopped. */
    public synchronized Listener stop(String id) {
        endpoint(id);
        Consumer consumer = running.remove(id);
        if (consumer != null) {
            consumer.close();
            log.info("LaneMQ listener '{}' stopped", id);
        }
        return listener(id);
    }

    /** Subscribes every listener whose autoStartup is true; on a failure closes those it started and throws. */
    synchronized void startAutomatic() {
        for (ListenerEndpoint endpoint : endpoints.values()) {
            if (endpoint.autoStartup() && !running.containsKey(endpoint.id())) {
                try {
                    running.put(endpoint.id(), endpoint.subscribe(client));
                } catch (MessagingException | RuntimeException e) {
                    // Those already started must not consume for an application that fails to start.
                    stopAll();
                    // Spring reports it as the cause of "Failed to start bean".
                    throw new IllegalStateException(endpoint + " cannot subscribe: " + e.getMessage(), e);
                }
            }
        }
    }

    /** Closes every running subscription, the latest started first. */
    synchronized void stopAll() {
        List<Map.Entry<String, Consumer>> started = new ArrayList<>(running.entrySet());
        for (int i = started.size() - 1; i >= 0; i--) {
            Consumer consumer = started.get(i).getValue();
            try {
                consumer.close();
            } catch (RuntimeException e) {
                // One failed close must not keep the others consuming; the shutdown goes on.
                log.warn("Closing the LaneMQ consumer of {} failed", consumer.subscription(), e);
            }
        }
        running.clear();
    }

    synchronized List<Consumer> consumers() {
        return List.copyOf(running.values());
    }

    synchronized List<ListenerEndpoint> endpoints() {
        return List.copyOf(endpoints.values());
    }

    private ListenerEndpoint endpoint(String id) {
        ListenerEndpoint endpoint = endpoints.get(id);
        if (endpoint == null) {
            throw new IllegalArgumentException("no LaneMQ listener '" + id + "'; the listeners are " + endpoints.keySet());
        }
        return endpoint;
    }

    private Consumer runningConsumer(String id, String action) {
        endpoint(id);
        Consumer consumer = running.get(id);
        if (consumer == null) {
            throw new IllegalStateException("cannot " + action + " LaneMQ listener '" + id + "': it is stopped; start it first");
        }
        return consumer;
    }

    private Listener describe(ListenerEndpoint endpoint) {
        Consumer consumer = running.get(endpoint.id());
        State state = consumer == null ? State.STOPPED : consumer.paused() ? State.PAUSED : State.RUNNING;
        return new Listener(endpoint.id(), endpoint.subscription().logicTopic(), endpoint.subscription().consumerGroup(), state,
                endpoint.autoStartup());
    }
}
