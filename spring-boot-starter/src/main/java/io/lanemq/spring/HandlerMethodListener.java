package io.lanemq.spring;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.MessageListener;
import io.lanemq.api.ReceivedMessage;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import org.springframework.util.ReflectionUtils;

/**
 * A {@code ConsumeResult handle(ReceivedMessage)} method of a bean, called as a {@link MessageListener}.
 * The method's own exception is rethrown as it is, so the SDK sees it exactly as it would from a
 * listener class (logged once, and the message is retried).
 */
final class HandlerMethodListener implements MessageListener {
    private final Object bean;
    private final Method method;

    HandlerMethodListener(Object bean, Method method) {
        this.bean = bean;
        this.method = method;
        ReflectionUtils.makeAccessible(method);
    }

    @Override
    public ConsumeResult consume(ReceivedMessage message) {
        try {
            return (ConsumeResult) method.invoke(bean, message);
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
