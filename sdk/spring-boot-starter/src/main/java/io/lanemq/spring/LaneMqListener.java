package io.lanemq.spring;

import io.lanemq.api.Deduplication;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Subscribes a handler to a logic topic once the application context is refreshed; the subscription is closed,
 * letting messages in hand finish, before any other bean is destroyed. Put it on a method of any bean (most
 * often), on a {@link io.lanemq.api.MessageListener} class, or on the {@code @Bean} method that returns one.
 * Attribute values may hold {@code ${...}} placeholders.
 *
 * <p>A handler method takes the payload, converted from the message's content type to the parameter's type by the
 * application's {@link io.lanemq.core.convert.MessageConversion} bean (JSON by default; {@code byte[]} and
 * {@code String} take the body as it is), plus any of: {@code @Header(LaneMqHeaders...)} for the message id, keys,
 * delivery attempt, lane and more, {@code @Header("name")} for a user property, {@code @Headers Map<String, String>},
 * the {@code ReceivedMessage} itself. It returns {@code void}, where returning means done and an exception means
 * retry later, or a {@code ConsumeResult} ({@code DEAD_LETTER}: never retried).
 *
 * <pre>{@code
 * @Component
 * class Billing {
 *     @LaneMqListener(topic = "order-paid", group = "billing", concurrency = "16", errorHandler = "parkFailedOrders")
 *     void onPaid(@Payload OrderPaid paid, @Header(LaneMqHeaders.DELIVERY_ATTEMPT) int attempt) {
 *         ledger.charge(paid.orderId());                 // throws: retried, up to maxDeliveryAttempts
 *     }
 * }
 *
 * @Component
 * @LaneMqListener(topic = "order-paid", group = "audit")
 * class PaidOrders implements MessageListener {
 *     public ConsumeResult consume(ReceivedMessage message) {
 *         ...
 *         return ConsumeResult.SUCCESS;
 *     }
 * }
 * }</pre>
 *
 * <p>The startup fails, naming the bean or method, on the annotation on a class that is not a
 * {@code MessageListener}, on a method parameter or return type the starter cannot serve, on an error handler that is
 * not a {@link LaneMqErrorHandler} bean, on a bad number, and on a logic topic or group the platform configuration
 * does not declare.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface LaneMqListener {
    /**
     * The listener's id in the {@link LaneMqListenerRegistry} (to pause, resume, stop or start it) and in the
     * {@code lanemqlisteners} Actuator endpoint; unique in the application. Empty: the bean's name, followed by
     * {@code .method} for a handler method.
     */
    String id() default "";

    /**
     * {@code "true"} (the default) to subscribe when the application starts; {@code "false"} to leave the listener
     * stopped until {@link LaneMqListenerRegistry#start(String)}. A placeholder that resolves to either may stand here.
     */
    String autoStartup() default "true";

    /** The logic topic. */
    String topic();

    /** The consumer group, declared for the topic in the platform configuration. */
    String group();

    /** True to process each sharding key's messages one at a time, in send order. */
    boolean ordered() default false;

    /** A tag filter such as {@code "paid || refunded"}; {@code "*"} takes every message. */
    String tagFilter() default "*";

    /**
     * Listener threads of this subscription in total, over both clusters; empty: the group's {@code threads} from
     * the platform configuration. A number, or a placeholder that resolves to one.
     */
    String concurrency() default "";

    /**
     * Deliveries of a message before it goes to the dead-letter topic; empty: the group's {@code maxDeliveryAttempts}
     * from the platform configuration. DIRECT mode only (in PROXY mode the proxy's setting applies).
     */
    String maxDeliveryAttempts() default "";

    /**
     * The name of a {@link LaneMqErrorHandler} bean, called when the handler fails a message for the last time: on its
     * last delivery attempt, or with a failure that is not retried; before the dead-letter topic. A batch listener's
     * handler is called once per failed message. Empty: none.
     */
    String errorHandler() default "";

    /**
     * The wait before each redelivery of a message this listener did not process, as an ISO-8601 duration such as
     * {@code PT2S}, or a placeholder that resolves to one; empty: the broker's ladder (DIRECT) or the proxy's (PROXY).
     * Alone it is a fixed back-off; with {@link #retryMultiplier()} the first of an exponential one, capped at
     * {@link #retryMaxDelay()}. See {@link io.lanemq.api.RetryBackoff} for how each mode keeps the delay.
     */
    String retryDelay() default "";

    /** With {@link #retryDelay()}: each wait is this many times the one before (a number >= 1); empty: fixed. */
    String retryMultiplier() default "";

    /** With {@link #retryMultiplier()}: the longest wait, an ISO-8601 duration; empty: ten times {@link #retryDelay()}. */
    String retryMaxDelay() default "";

    /**
     * Exception types this listener never retries, besides {@code lanemq.retry.not-retryable}: a failure that is one of
     * them, or caused by one, sends the message to the dead-letter topic at once (through the {@link #errorHandler()}
     * first). A payload that cannot be converted is not retried either, unless
     * {@code lanemq.retry.retry-conversion-failures} is set.
     */
    Class<? extends Throwable>[] notRetryable() default {};

    /**
     * Drops copies of messages this instance already processed successfully within this window (see
     * {@link Deduplication}): an ISO-8601 duration such as {@code PT10M}, or a placeholder that resolves
     * to one; empty: off.
     */
    String deduplicateWindow() default "";

    /** What makes two deliveries one message when {@link #deduplicateWindow()} is set: the message id or its first key. */
    Deduplication.Identity deduplicateBy() default Deduplication.Identity.MESSAGE_ID;

    /**
     * Makes the method a batch listener ({@link io.lanemq.api.BatchMessageListener}) taking up to this many messages
     * at once: its one parameter is a {@code List} of payloads (or of {@code ReceivedMessage}), and it returns
     * {@code void} (an exception retries the whole batch) or a {@link io.lanemq.api.BatchResult}. Give the listener at
     * least as many threads ({@link #concurrency()}): a batch holds what they hold at once. Empty: one message per
     * call.
     */
    String batchSize() default "";

    /** With {@link #batchSize()}: how long a batch waits to fill after its first message, as an ISO-8601 duration. */
    String batchWait() default "PT0.1S";
}
