package io.lanemq.spring;

import io.lanemq.api.MessageListener;
import io.lanemq.api.Subscription;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.BeanInitializationException;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/**
 * Finds the {@link LaneMqListener} beans of a bean factory (on the bean's class or on its
 * {@code @Bean} method) and checks each before anything subscribes: it must be a
 * {@link MessageListener}, and its topic, group and tag filter must be valid names.
 */
final class ListenerEndpoints {
    private ListenerEndpoints() {
    }

    static List<ListenerEndpoint> discover(ConfigurableListableBeanFactory beanFactory) {
        List<ListenerEndpoint> endpoints = new ArrayList<>();
        for (String beanName : beanFactory.getBeanNamesForAnnotation(LaneMqListener.class)) {
            LaneMqListener annotation = beanFactory.findAnnotationOnBean(beanName, LaneMqListener.class);
            Class<?> type = beanFactory.getType(beanName);
            if (type == null || !MessageListener.class.isAssignableFrom(type)) {
                throw new BeanInitializationException("@LaneMqListener on bean '" + beanName + "' ("
                        + (type == null ? "unknown type" : type.getName()) + "): the bean must implement "
                        + MessageListener.class.getName());
            }
            Subscription subscription = subscription(beanName, annotation, beanFactory);
            endpoints.add(new ListenerEndpoint(beanName, subscription, beanFactory.getBean(beanName, MessageListener.class)));
        }
        return List.copyOf(endpoints);
    }

    private static Subscription subscription(String beanName, LaneMqListener annotation, ConfigurableListableBeanFactory beanFactory) {
        String topic = beanFactory.resolveEmbeddedValue(annotation.topic());
        String group = beanFactory.resolveEmbeddedValue(annotation.group());
        String tagFilter = beanFactory.resolveEmbeddedValue(annotation.tagFilter());
        try {
            return Subscription.builder(topic, group).ordered(annotation.ordered()).tagFilter(tagFilter).build();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new BeanInitializationException("@LaneMqListener on bean '" + beanName + "': " + e.getMessage(), e);
        }
    }
}
