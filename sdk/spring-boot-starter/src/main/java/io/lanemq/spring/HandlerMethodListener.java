package io.lanemq.spring;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Lane;
import io.lanemq.api.MessageContext;
import io.lanemq.api.MessageListener;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.core.convert.MessageConversion;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.springframework.core.MethodParameter;
import org.springframework.core.convert.TypeDescriptor;
import org.springframework.core.convert.support.DefaultConversionService;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.messaging.handler.annotation.Headers;
import org.springframework.messaging.handler.annotation.ValueConstants;
import org.springframework.util.ReflectionUtils;

/**
 * A {@link LaneMqListener} method of a bean, called as a {@link MessageListener}. Each parameter's value is worked
 * out once, at startup, from its type and annotation, so a parameter the starter cannot fill fails the startup:
 * <ul>
 *   <li>{@code ReceivedMessage}: the message; {@code MessageContext}: its context;</li>
 *   <li>{@code @Header(name)}: one of {@link LaneMqHeaders} or a user property, converted to the parameter's type
 *       (an {@code Optional} or {@code required = false} parameter is empty/null when the message lacks it);</li>
 *   <li>{@code @Headers Map<String, String>}: the user properties;</li>
 *   <li>any other parameter, or the one marked {@code @Payload}: the payload, read by the {@link MessageConversion}
 *       as the parameter's (possibly generic) type. At most one.</li>
 * </ul>
 * The method returns {@code void} (returning is success) or {@code ConsumeResult}. Its own exception is rethrown as
 * it is, so the SDK sees it exactly as from a listener class (logged once, and the message is retried).
 */
final class HandlerMethodListener implements MessageListener {
    private static final DefaultConversionService CONVERSION = new DefaultConversionService();
    private static final TypeDescriptor STRING = TypeDescriptor.valueOf(String.class);

    private final Object bean;
    private final Method method;
    private final List<Function<ReceivedMessage, Object>> arguments;
    private final boolean returnsResult;

    private HandlerMethodListener(Object bean, Method method, List<Function<ReceivedMessage, Object>> arguments,
                                  boolean returnsResult) {
        this.bean = bean;
        this.method = method;
        this.arguments = arguments;
        this.returnsResult = returnsResult;
        ReflectionUtils.makeAccessible(method);
    }

    /**
     * The listener calling {@code invocable} (the method as the bean's proxy exposes it) of {@code bean};
     * {@code declared} is the annotated method, whose parameters are read.
     *
     * @throws IllegalArgumentException a parameter or the return type the starter cannot serve, named
     */
    static HandlerMethodListener of(Object bean, Method declared, Method invocable, MessageConversion conversion) {
        Class<?> returned = declared.getReturnType();
        if (returned != void.class && returned != ConsumeResult.class) {
            throw new IllegalArgumentException("the method must return void or ConsumeResult, not " + returned.getName());
        }
        List<Function<ReceivedMessage, Object>> arguments = new ArrayList<>();
        boolean payload = false;
        for (int i = 0; i < declared.getParameterCount(); i++) {
            MethodParameter parameter = new MethodParameter(declared, i);
            Header header = parameter.getParameterAnnotation(Header.class);
            Class<?> type = parameter.getParameterType();
            if (header != null) {
                arguments.add(header(parameter, header));
            } else if (parameter.hasParameterAnnotation(Headers.class)) {
                if (!Map.class.isAssignableFrom(type)) {
                    throw new IllegalArgumentException("parameter " + i + ": @Headers needs a Map<String, String>, not " + type.getName());
                }
                arguments.add(ReceivedMessage::properties);
            } else if (type == ReceivedMessage.class) {
                arguments.add(message -> message);
            } else if (type == MessageContext.class) {
                arguments.add(ReceivedMessage::context);
            } else {
                if (payload) {
                    throw new IllegalArgumentException("parameter " + i + " (" + type.getName() + ") would be a second payload;"
                            + " mark the other parameters with @Header or @Headers");
                }
                payload = true;
                java.lang.reflect.Type target = parameter.getGenericParameterType();
                arguments.add(message -> conversion.fromMessage(message, target));
            }
        }
        return new HandlerMethodListener(bean, invocable, List.copyOf(arguments), returned == ConsumeResult.class);
    }

    private static Function<ReceivedMessage, Object> header(MethodParameter parameter, Header header) {
        // Not synthesized here, so the value/name alias is resolved by hand.
        String name = header.value().isEmpty() ? header.name() : header.value();
        if (name.isEmpty()) {
            throw new IllegalArgumentException("parameter " + parameter.getParameterIndex() + ": @Header needs a name"
                    + " (a LaneMqHeaders constant or a user property)");
        }
        boolean optional = parameter.getParameterType() == Optional.class;
        TypeDescriptor target = optional ? new TypeDescriptor(parameter.nested()) : new TypeDescriptor(parameter);
        boolean required = header.required() && !optional;
        String defaultValue = ValueConstants.DEFAULT_NONE.equals(header.defaultValue()) ? null : header.defaultValue();
        Function<ReceivedMessage, Object> raw = raw(name, target);
        TypeDescriptor source = rawType(name, target);
        if (!CONVERSION.canConvert(source, target)) {
            throw new IllegalArgumentException("parameter " + parameter.getParameterIndex() + ": header '" + name + "' is a "
                    + source.getType().getSimpleName() + ", which cannot become a " + target.getResolvableType());
        }
        return message -> {
            Object value = raw.apply(message);
            if (value == null && defaultValue != null) {
                value = CONVERSION.convert(defaultValue, STRING, target);
            } else if (value != null) {
                value = CONVERSION.convert(value, source, target);
            }
            if (value == null && required) {
                throw new IllegalStateException("message " + message.messageId() + " [logicTopic=" + message.logicTopic()
                        + "] has no header '" + name + "', which parameter " + parameter.getParameterIndex() + " of "
                        + parameter.getMethod() + " requires (use Optional or @Header(required = false) when it may be absent)");
            }
            return optional ? Optional.ofNullable(value) : value;
        };
    }

    /** The header's value as the message holds it; null when absent. */
    private static Function<ReceivedMessage, Object> raw(String name, TypeDescriptor target) {
        return switch (name) {
            case LaneMqHeaders.MESSAGE_ID -> ReceivedMessage::messageId;
            case LaneMqHeaders.KEYS -> target.getType() == String.class
                    ? message -> message.keys().isEmpty() ? null : message.keys().get(0) : ReceivedMessage::keys;
            case LaneMqHeaders.DELIVERY_ATTEMPT -> ReceivedMessage::deliveryAttempt;
            case LaneMqHeaders.LANE -> target.getType() == String.class
                    ? message -> message.lane().map(Lane::path).orElse(null) : message -> message.lane().orElse(null);
            case LaneMqHeaders.TAG -> message -> message.tag().orElse(null);
            case LaneMqHeaders.SHARDING_KEY -> message -> message.shardingKey().orElse(null);
            case LaneMqHeaders.LOGIC_TOPIC -> ReceivedMessage::logicTopic;
            case LaneMqHeaders.CLUSTER -> ReceivedMessage::cluster;
            case LaneMqHeaders.BORN_TIMESTAMP -> ReceivedMessage::bornTimestamp;
            case LaneMqHeaders.STRESS_TEST -> ReceivedMessage::stressTest;
            default -> message -> message.properties().get(name);
        };
    }

    /** The type of what {@link #raw} gives for {@code name} when the parameter is a {@code target}. */
    private static TypeDescriptor rawType(String name, TypeDescriptor target) {
        if (target.getType() == String.class && (name.equals(LaneMqHeaders.KEYS) || name.equals(LaneMqHeaders.LANE))) {
            return STRING;
        }
        return switch (name) {
            case LaneMqHeaders.KEYS -> TypeDescriptor.collection(List.class, STRING);
            case LaneMqHeaders.DELIVERY_ATTEMPT -> TypeDescriptor.valueOf(Integer.class);
            case LaneMqHeaders.LANE -> TypeDescriptor.valueOf(Lane.class);
            case LaneMqHeaders.BORN_TIMESTAMP -> TypeDescriptor.valueOf(Long.class);
            case LaneMqHeaders.STRESS_TEST -> TypeDescriptor.valueOf(Boolean.class);
            default -> STRING;
        };
    }

    @Override
    public ConsumeResult consume(ReceivedMessage message) {
        Object[] values = new Object[arguments.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = arguments.get(i).apply(message);
        }
        Object result = invoke(bean, method, values);
        return returnsResult ? (ConsumeResult) result : ConsumeResult.SUCCESS;
    }

    /** Calls a handler method; its own exception is rethrown as it is, so the SDK logs it once as a listener's. */
    static Object invoke(Object bean, Method method, Object[] values) {
        try {
            return method.invoke(bean, values);
        } catch (InvocationTargetException e) {
            Throwable thrown = e.getTargetException();
            if (thrown instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (thrown instanceof Error error) {
                throw error;
            }
            throw new UndeclaredThrowableException(thrown, method + " threw " + thrown);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot call " + method, e);
        }
    }

    @Override
    public String toString() {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName();
    }
}
