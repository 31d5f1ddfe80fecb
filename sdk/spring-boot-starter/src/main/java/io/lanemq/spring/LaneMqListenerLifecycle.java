package io.lanemq.spring;

import io.lanemq.api.Consumer;
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
 * Subscribes every {@link LaneMqListener} whose {@code autoStartup} is true when the context starts, and closes every
 * subscription when it stops, through the {@link LaneMqListenerRegistry} (which also controls them one by one).
 *
 * <p>Why a {@link SmartLifecycle} in the last phase: listeners are found and checked once every
 * singleton exists, so a listener may depend on any bean; they start consuming last, when the whole
 * application is ready to process; and they stop first on shutdown, so messages in hand finish
 * while the producer and every other bean they use still work. {@link Consumer#close()} lets the
 * in-flight messages finish and commits them.
 */
public class LaneMqListenerLifecycle implements SmartLifecycle, SmartInitializingSingleton, BeanFactoryAware {
    private static final Logger log = LoggerFactory.getLogger(LaneMqListenerLifecycle.class);

    private final LaneMqListenerRegistry registry;
    private ConfigurableListableBeanFactory beanFactory;
    private boolean running;

    public LaneMqListenerLifecycle(LaneMqListenerRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) throws BeansException {
        this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
    }

    /** Checks every listener before the context starts anything, so a bad one fails the refresh early. */
    @Override
    public void afterSingletonsInstantiated() {
        registry.register(ListenerEndpoints.discover(beanFactory));
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        registry.startAutomatic();
        running = true;
        log.info("LaneMQ listeners: {}", registry.listeners());
    }

    @Override
    public synchronized void stop() {
        registry.stopAll();
        running = false;
    }

    @Override
    public synchronized boolean isRunning() {
        return running;
    }

    /** The subscriptions running now (none before start and after stop). */
    public List<Consumer> consumers() {
        return registry.consumers();
    }

    @Override
    public int getPhase() {
        return DEFAULT_PHASE;
    }
}
