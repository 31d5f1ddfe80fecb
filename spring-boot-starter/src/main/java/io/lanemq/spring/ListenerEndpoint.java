package io.lanemq.spring;

import io.lanemq.api.MessageListener;
import io.lanemq.api.Subscription;

/** One {@link LaneMqListener} bean: what it subscribes to, and the listener to call. */
record ListenerEndpoint(String beanName, Subscription subscription, MessageListener listener) {
    @Override
    public String toString() {
        return "@LaneMqListener bean '" + beanName + "' " + subscription;
    }
}
