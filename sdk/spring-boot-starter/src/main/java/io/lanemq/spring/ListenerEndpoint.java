package io.lanemq.spring;

import io.lanemq.api.BatchMessageListener;
import io.lanemq.api.Batching;
import io.lanemq.api.Consumer;
import io.lanemq.api.MessageListener;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Subscription;

/**
 * One {@link LaneMqListener} bean or method: what it subscribes to, and the listener to call, one message at a time
 * ({@code listener}) or in batches ({@code batchListener} with its {@code batching}); the other pair is null.
 * {@code id} names it in the {@link LaneMqListenerRegistry}; {@code autoStartup} says whether the application's start
 * subscribes it.
 */
record ListenerEndpoint(String beanName, Subscription subscription, MessageListener listener,
                        BatchMessageListener batchListener, Batching batching, String id, boolean autoStartup) {
    static ListenerEndpoint single(String beanName, Subscription subscription, MessageListener listener) {
        return new ListenerEndpoint(beanName, subscription, listener, null, null, beanName, true);
    }

    static ListenerEndpoint batch(String beanName, Subscription subscription, BatchMessageListener listener,
                                  Batching batching) {
        return new ListenerEndpoint(beanName, subscription, null, listener, batching, beanName, true);
    }

    /** This endpoint under {@code id} (the bean name when blank), subscribed at the start or not. */
    ListenerEndpoint controlled(String id, boolean autoStartup) {
        return new ListenerEndpoint(beanName, subscription, listener, batchListener, batching,
                id == null || id.isBlank() ? beanName : id.strip(), autoStartup);
    }

    Consumer subscribe(MessagingClient client) throws MessagingException {
        return listener != null ? client.subscribe(subscription, listener) : client.subscribe(subscription, batching, batchListener);
    }

    @Override
    public String toString() {
        return "@LaneMqListener " + (id.equals(beanName) ? "" : "'" + id + "' ") + "bean '" + beanName + "' " + subscription + (batching == null ? "" : " " + batching);
    }
}
