package io.lanemq.spring;

import io.lanemq.api.MessageContext;
import io.micrometer.context.ThreadLocalAccessor;

/**
 * The {@link MessageContext} (lane and stress-test mark) as Micrometer context propagation sees it, so whatever
 * carries a context snapshot across threads carries the marks too: Reactor with automatic context propagation,
 * Spring's {@code ContextPropagatingTaskDecorator} on {@code @Async} executors, tracing's wrapped executors.
 * Registered through {@code META-INF/services/io.micrometer.context.ThreadLocalAccessor}, which
 * {@code ContextRegistry.getInstance()} reads; inert without context-propagation on the class path.
 *
 * <p>The base context of production traffic is "no value": a snapshot taken outside any lane carries nothing, and
 * a thread it is restored on keeps (then gets back) its own.
 */
public final class MessageContextAccessor implements ThreadLocalAccessor<MessageContext> {
    /** The key of the context in a snapshot. */
    public static final String KEY = "lanemq.message-context";

    @Override
    public Object key() {
        return KEY;
    }

    @Override
    public MessageContext getValue() {
        MessageContext current = MessageContext.current();
        return current.equals(MessageContext.none()) ? null : current;
    }

    @Override
    public void setValue(MessageContext value) {
        // The scope is not kept: restore() and setValue() below put the thread's context back explicitly.
        value.enter();
    }

    @Override
    public void setValue() {
        MessageContext.none().enter();
    }

    @Override
    public void restore(MessageContext previousValue) {
        previousValue.enter();
    }

    @Override
    public void restore() {
        MessageContext.none().enter();
    }
}
