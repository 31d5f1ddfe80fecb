package io.lanemq.spring;

import io.lanemq.api.Consumer;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.MessagingException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Subscribes every {@link LaneMqListener} bean, and closes those subscriptions again.
 *
 * <p>Why a {@link SmartLifecycle} in the last phase: listeners are found and checked once every
 * singleton exists, so a listener may depend on any bean; they start consuming last, when the whole
 * application is ready to process; and they stop first on shutdown, so messages in hand finish
 * while the producer and every other bean they use still work. {@link Consumer#close()} lets the
 * in-flight messages finish and commits them.
 */
public class LaneMqListenerLifecycle implements SmartLifecycle, SmartInitializingSingleton, BeanFactoryAware {
    private static final Logger log = LoggerFactory.getLogger(LaneMqListenerLifecycle.class);

    private final MessagingClient client;
    private ConfigurableListableBeanFactory beanFactory;
    private List<ListenerEndpoint> endpoints = List.of();
    private final List<Consumer> consumers = new ArrayList<>();

    public LaneMqListenerLifecycle(MessagingClient client) {
        this.client = client;
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) throws BeansException {
        this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
    }

    /** Checks every listener before the context starts anything, so a bad one fails the refresh early. */
    @Override
    public void afterSingletonsInstantiated() {
        endpoints = ListenerEndpoints.discover(beanFactory);
    }

    @Override
    public synchronized void start() {
        if (!consumers.isEmpty()) {
            return;
        }
        for (ListenerEndpoint endpoint : endpoints) {
            try {
                consumers.add(endpoint.subscribe(client));
            } catch (MessagingException | RuntimeException e) {
                // Those already started must not consume for an application that fails to start.
                closeAll();
                // Spring reports it as the cause of "Failed to start bean".
                throw new IllegalStateException(endpoint + " cannot subscribe: " + e.getMessage(), e);
            }
        }
        log.info("LaneMQ listeners subscribed: {}", endpoints);
    }

    @Override
    public synchronized void stop() {
        closeAll();
    }

    private void closeAll() {
        // Latest first, the reverse of start: a shutdown mirrors the startup.
        for (int i = consumers.size() - 1; i >= 0; i--) {
            Consumer consumer = consumers.get(i);
            try {
                consumer.close();
            } catch (RuntimeException e) {
                // One failed close must not keep the others consuming; the shutdown goes on.
                log.warn("Closing the LaneMQ consumer of {} failed", consumer.subscription(), e);
            }
        }
        consumers.clear();
    }

    @Override
    public synchronized boolean isRunning() {
        return !consumers.isEmpty();
    }

    /** The subscriptions running now (none before start and after stop). */
    public synchronized List<Consumer> consumers() {
        return List.copyOf(consumers);
    }

    @Override
    public int getPhase() {
        return DEFAULT_PHASE;
    }
}
