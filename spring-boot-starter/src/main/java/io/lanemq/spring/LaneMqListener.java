package io.lanemq.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Subscribes a {@link io.lanemq.api.MessageListener} bean to a logic topic once the application
 * context is refreshed; the subscription is closed, letting messages in hand finish, before any
 * other bean is destroyed. Put it on the listener's class, on the {@code @Bean} method that
 * returns the listener, or on a {@code ConsumeResult name(ReceivedMessage)} method of any bean.
 * Attribute values may hold {@code ${...}} placeholders.
 *
 * <pre>{@code
 * @Component
 * @LaneMqListener(topic = "order-paid", group = "billing")
 * class PaidOrders implements MessageListener {
 *     public ConsumeResult consume(ReceivedMessage message) {
 *         ...
 *         return ConsumeResult.SUCCESS;
 *     }
 * }
 *
 * @Component
 * class Audit {
 *     @LaneMqListener(topic = "order-paid", group = "audit")
 *     ConsumeResult record(ReceivedMessage message) {
 *         ...
 *     }
 * }
 * }</pre>
 *
 * <p>The startup fails, naming the bean, on the annotation on a class that is not a
 * {@code MessageListener}, on a method of another signature, and on a logic topic or group the
 * platform configuration does not declare.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface LaneMqListener {
    /** The logic topic. */
    String topic();

    /** The consumer group, declared for the topic in the platform configuration. */
    String group();

    /** True to process each sharding key's messages one at a time, in send order. */
    boolean ordered() default false;

    /** A tag filter such as {@code "paid || refunded"}; {@code "*"} takes every message. */
    String tagFilter() default "*";
}
