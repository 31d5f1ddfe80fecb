package io.lanemq.spring;

import io.lanemq.api.Batching;
import io.lanemq.api.Deduplication;
import io.lanemq.api.MessageListener;
import io.lanemq.api.RetryBackoff;
import io.lanemq.api.Subscription;
import io.lanemq.core.convert.MessageConversion;
import java.lang.reflect.Method;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanInitializationException;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

/**
 * Finds the {@link LaneMqListener}s of a bean factory and checks each before anything subscribes:
 * a {@link MessageListener} bean annotated on its class or on its {@code @Bean} method, or a handler
 * method of any bean whose parameters {@link HandlerMethodListener} can fill; topic, group and tag filter
 * must be valid names, concurrency and attempts positive numbers, the error handler a {@link LaneMqErrorHandler} bean.
 * Each listener is wrapped in its {@link FailurePolicy} (what it does not retry, and its error handler).
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
        Map<String, ListenerEndpoint> byId = new LinkedHashMap<>();
        for (ListenerEndpoint endpoint : endpoints) {
            ListenerEndpoint same = byId.putIfAbsent(endpoint.id(), endpoint);
            if (same != null) {
                throw new BeanInitializationException("@LaneMqListener id '" + endpoint.id() + "' is given twice: " + same
                        + " and " + endpoint + "; each listener needs its own");
            }
        }
        return List.copyOf(endpoints);
    }

    /** {@code endpoint} with the annotation's id and autoStartup. */
    private static ListenerEndpoint controlled(String where, LaneMqListener annotation, ListenerEndpoint endpoint,
                                               ConfigurableListableBeanFactory beanFactory) {
        String autoStartup = beanFactory.resolveEmbeddedValue(annotation.autoStartup());
        String value = autoStartup == null ? "" : autoStartup.strip();
        if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
            throw new BeanInitializationException("@LaneMqListener on " + where + ": autoStartup must be true or false, was '"
                    + autoStartup + "'");
        }
        return endpoint.controlled(beanFactory.resolveEmbeddedValue(annotation.id()), Boolean.parseBoolean(value));
    }

    private static ListenerEndpoint listenerBean(String beanName, ConfigurableListableBeanFactory beanFactory) {
        LaneMqListener annotation = beanFactory.findAnnotationOnBean(beanName, LaneMqListener.class);
        Class<?> type = beanFactory.getType(beanName);
        if (type == null || !MessageListener.class.isAssignableFrom(type)) {
            throw new BeanInitializationException("@LaneMqListener on bean '" + beanName + "' ("
                    + (type == null ? "unknown type" : type.getName()) + "): the bean must implement "
                    + MessageListener.class.getName() + ", or the annotation go on a handler method");
        }
        String where = "bean '" + beanName + "'";
        if (!beanFactory.resolveEmbeddedValue(annotation.batchSize()).isBlank()) {
            throw new BeanInitializationException("@LaneMqListener on " + where + ": batchSize goes on a handler method"
                    + " taking a List; a MessageListener bean takes one message at a time");
        }
        return controlled(where, annotation, ListenerEndpoint.single(beanName, subscription(where, annotation, beanFactory),
                withFailurePolicy(beanFactory.getBean(beanName, MessageListener.class),
                        failurePolicy(where, annotation, beanFactory))), beanFactory);
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
        MessageConversion conversion = beanFactory.getBeanProvider(MessageConversion.class).getIfAvailable(MessageConversion::defaults);
        methods.forEach((method, annotation) -> {
            String where = "method " + type.getName() + "." + method.getName() + " of bean '" + beanName + "'";
            Object bean = beanFactory.getBean(beanName);
            Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
            String name = beanName + "." + method.getName();
            Integer batchSize = number(where, "batchSize", annotation.batchSize(), beanFactory);
            FailurePolicy policy = failurePolicy(where, annotation, beanFactory);
            try {
                if (batchSize != null) {
                    endpoints.add(controlled(where, annotation, ListenerEndpoint.batch(name, subscription(where, annotation,
                                    beanFactory), BatchHandlerMethodListener.of(bean, method, invocable, conversion, policy),
                            batching(where, annotation, batchSize, beanFactory)), beanFactory));
                } else {
                    endpoints.add(controlled(where, annotation, ListenerEndpoint.single(name, subscription(where, annotation,
                            beanFactory), withFailurePolicy(HandlerMethodListener.of(bean, method, invocable, conversion), policy)),
                            beanFactory));
                }
            } catch (IllegalArgumentException e) {
                throw new BeanInitializationException("@LaneMqListener on " + where + ": " + e.getMessage(), e);
            }
        });
        return endpoints;
    }

    private static Batching batching(String where, LaneMqListener annotation, int batchSize,
                                     ConfigurableListableBeanFactory beanFactory) {
        Duration wait = duration(where, "batchWait", annotation.batchWait(), beanFactory);
        return Batching.of(batchSize, wait == null ? Duration.ofMillis(100) : wait);
    }

    private static Subscription subscription(String where, LaneMqListener annotation, ConfigurableListableBeanFactory beanFactory) {
        String topic = beanFactory.resolveEmbeddedValue(annotation.topic());
        String group = beanFactory.resolveEmbeddedValue(annotation.group());
        String tagFilter = beanFactory.resolveEmbeddedValue(annotation.tagFilter());
        try {
            Subscription.Builder builder = Subscription.builder(topic, group).ordered(annotation.ordered()).tagFilter(tagFilter);
            Integer threads = number(where, "concurrency", annotation.concurrency(), beanFactory);
            if (threads != null) {
                builder.threads(threads);
            }
            Integer attempts = number(where, "maxDeliveryAttempts", annotation.maxDeliveryAttempts(), beanFactory);
            if (attempts != null) {
                builder.maxDeliveryAttempts(attempts);
            }
            retryBackoff(where, annotation, beanFactory).ifPresent(builder::retryBackoff);
            Duration window = duration(where, "deduplicateWindow", annotation.deduplicateWindow(), beanFactory);
            if (window != null) {
                builder.deduplicate(annotation.deduplicateBy() == Deduplication.Identity.FIRST_KEY
                        ? Deduplication.byFirstKey(window) : Deduplication.byMessageId(window));
            }
            return builder.build();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new BeanInitializationException("@LaneMqListener on " + where + ": " + e.getMessage(), e);
        }
    }

    /** The listener's back-off from {@code retryDelay}, {@code retryMultiplier} and {@code retryMaxDelay}. */
    private static Optional<RetryBackoff> retryBackoff(String where, LaneMqListener annotation,
                                                       ConfigurableListableBeanFactory beanFactory) {
        Duration delay = duration(where, "retryDelay", annotation.retryDelay(), beanFactory);
        String multiplier = beanFactory.resolveEmbeddedValue(annotation.retryMultiplier());
        Duration max = duration(where, "retryMaxDelay", annotation.retryMaxDelay(), beanFactory);
        boolean exponential = multiplier != null && !multiplier.isBlank();
        if (delay == null) {
            if (exponential || max != null) {
                throw new IllegalArgumentException("retryMultiplier and retryMaxDelay need a retryDelay");
            }
            return Optional.empty();
        }
        if (!exponential) {
            if (max != null) {
                throw new IllegalArgumentException("retryMaxDelay needs a retryMultiplier (without one the delay is fixed)");
            }
            return Optional.of(RetryBackoff.fixed(delay));
        }
        double factor;
        try {
            factor = Double.parseDouble(multiplier.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("retryMultiplier must be a number >= 1, was '" + multiplier + "'");
        }
        return Optional.of(RetryBackoff.exponential(delay, factor, max != null ? max : delay.multipliedBy(10)));
    }

    /** The attribute's duration; null when empty. */
    private static Duration duration(String where, String attribute, String value, ConfigurableListableBeanFactory beanFactory) {
        String resolved = beanFactory.resolveEmbeddedValue(value);
        if (resolved == null || resolved.isBlank()) {
            return null;
        }
        try {
            return Duration.parse(resolved.strip());
        } catch (DateTimeParseException e) {
            throw new BeanInitializationException("@LaneMqListener on " + where + ": " + attribute
                    + " must be an ISO-8601 duration such as PT10M, was '" + resolved + "'");
        }
    }

    /** The attribute's number; null when empty (the platform configuration's value applies). */
    private static Integer number(String where, String attribute, String value, ConfigurableListableBeanFactory beanFactory) {
        String resolved = beanFactory.resolveEmbeddedValue(value);
        if (resolved == null || resolved.isBlank()) {
            return null;
        }
        int number;
        try {
            number = Integer.parseInt(resolved.strip());
        } catch (NumberFormatException e) {
            number = 0;
        }
        if (number < 1) {
            throw new BeanInitializationException("@LaneMqListener on " + where + ": " + attribute + " must be a number >= 1, was '"
                    + resolved + "'");
        }
        return number;
    }

    private static MessageListener withFailurePolicy(MessageListener listener, FailurePolicy policy) {
        return policy.isDefault() ? listener : new RecoveringListener(listener, policy);
    }

    /** The listener's failure policy: the application's {@code lanemq.retry.*} plus the annotation's own. */
    private static FailurePolicy failurePolicy(String where, LaneMqListener annotation,
                                               ConfigurableListableBeanFactory beanFactory) {
        RetryProperties defaults = beanFactory.getBeanProvider(LaneMqProperties.class)
                .getIfAvailable(LaneMqProperties::new).getRetry();
        List<Class<? extends Throwable>> notRetryable = new ArrayList<>(defaults.getNotRetryable());
        notRetryable.addAll(List.of(annotation.notRetryable()));
        String name = beanFactory.resolveEmbeddedValue(annotation.errorHandler());
        if (name == null || name.isBlank()) {
            return new FailurePolicy(notRetryable, defaults.isRetryConversionFailures(), null, null);
        }
        if (!beanFactory.containsBean(name) || !beanFactory.isTypeMatch(name, LaneMqErrorHandler.class)) {
            throw new BeanInitializationException("@LaneMqListener on " + where + ": errorHandler '" + name + "' is not a "
                    + LaneMqErrorHandler.class.getSimpleName() + " bean; those here: "
                    + List.of(beanFactory.getBeanNamesForType(LaneMqErrorHandler.class)));
        }
        return new FailurePolicy(notRetryable, defaults.isRetryConversionFailures(),
                beanFactory.getBean(name, LaneMqErrorHandler.class), name);
    }
}
