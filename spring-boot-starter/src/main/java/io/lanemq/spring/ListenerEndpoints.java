package io.lanemq.spring;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.MessageListener;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.Subscription;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanInitializationException;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

/**
 * Finds the {@link LaneMqListener}s of a bean factory and checks each before anything subscribes:
 * a {@link MessageListener} bean annotated on its class or on its {@code @Bean} method, or a
 * {@code ConsumeResult name(ReceivedMessage)} method of any bean; topic, group and tag filter
 * must be valid names.
 */
final class ListenerEndpoints {
    private ListenerEndpoints() {
    }

    static List<ListenerEndpoint> discover(ConfigurableListableBeanFactory beanFactory) {
        List<ListenerEndpoint> endpoints = new ArrayList<>();
        for (String beanName : beanFactory.getBeanNamesForAnnotation(LaneMqListener.class)) {
            endpoints.add(listenerBean(beanName, beanFactory));
        }
        for (String beanName : beanFactory.getBeanDefinitionNames()) {
            if (!beanFactory.getBeanDefinition(beanName).isAbstract()) {
                endpoints.addAll(handlerMethods(beanName, beanFactory));
            }
        }
        return List.copyOf(endpoints);
    }

    private static ListenerEndpoint listenerBean(String beanName, ConfigurableListableBeanFactory beanFactory) {
        LaneMqListener annotation = beanFactory.findAnnotationOnBean(beanName, LaneMqListener.class);
        Class<?> type = beanFactory.getType(beanName);
        if (type == null || !MessageListener.class.isAssignableFrom(type)) {
            throw new BeanInitializationException("@LaneMqListener on bean '" + beanName + "' ("
                    + (type == null ? "unknown type" : type.getName()) + "): the bean must implement "
                    + MessageListener.class.getName() + ", or the annotation go on a method ConsumeResult name(ReceivedMessage)");
        }
        return new ListenerEndpoint(beanName, subscription("bean '" + beanName + "'", annotation, beanFactory),
                beanFactory.getBean(beanName, MessageListener.class));
    }

    /** Annotated methods other than {@code @Bean} methods, which declare listener beans (above). */
    private static List<ListenerEndpoint> handlerMethods(String beanName, ConfigurableListableBeanFactory beanFactory) {
        Class<?> type = beanFactory.getType(beanName, false);
        if (type == null) {
            return List.of();
        }
        Map<Method, LaneMqListener> methods = MethodIntrospector.selectMethods(ClassUtils.getUserClass(type),
                (MethodIntrospector.MetadataLookup<LaneMqListener>) method -> AnnotatedElementUtils.hasAnnotation(method, Bean.class)
                        ? null : AnnotatedElementUtils.findMergedAnnotation(method, LaneMqListener.class));
        List<ListenerEndpoint> endpoints = new ArrayList<>();
        methods.forEach((method, annotation) -> {
            String where = "method " + type.getName() + "." + method.getName() + " of bean '" + beanName + "'";
            if (method.getParameterCount() != 1 || method.getParameterTypes()[0] != ReceivedMessage.class
                    || method.getReturnType() != ConsumeResult.class) {
                throw new BeanInitializationException("@LaneMqListener on " + where
                        + ": the method must be ConsumeResult name(ReceivedMessage)");
            }
            Object bean = beanFactory.getBean(beanName);
            Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
            endpoints.add(new ListenerEndpoint(beanName + "." + method.getName(), subscription(where, annotation, beanFactory),
                    new HandlerMethodListener(bean, invocable)));
        });
        return endpoints;
    }

    private static Subscription subscription(String where, LaneMqListener annotation, ConfigurableListableBeanFactory beanFactory) {
        String topic = beanFactory.resolveEmbeddedValue(annotation.topic());
        String group = beanFactory.resolveEmbeddedValue(annotation.group());
        String tagFilter = beanFactory.resolveEmbeddedValue(annotation.tagFilter());
        try {
            return Subscription.builder(topic, group).ordered(annotation.ordered()).tagFilter(tagFilter).build();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new BeanInitializationException("@LaneMqListener on " + where + ": " + e.getMessage(), e);
        }
    }
}
