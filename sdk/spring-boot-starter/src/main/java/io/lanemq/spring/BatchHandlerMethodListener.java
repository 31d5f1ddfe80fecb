package io.lanemq.spring;

import io.lanemq.api.BatchMessageListener;
import io.lanemq.api.BatchResult;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.core.convert.MessageConversion;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.ReflectionUtils;

/**
 * A {@link LaneMqListener} method with a {@code batchSize}, called as a {@link BatchMessageListener}: its one
 * parameter is a {@code List} of payloads (read by the {@link MessageConversion} as the list's element type) or of
 * {@code ReceivedMessage}; it returns {@code void} (returning is success, an exception retries the batch) or a
 * {@link BatchResult} whose indexes are those of the list it was given.
 *
 * <p>A message whose payload cannot be read is left out of the list and retried alone (and, as with a single
 * listener, dead-lettered after its last attempt), so one bad message does not hold its batch back.
 */
final class BatchHandlerMethodListener implements BatchMessageListener {
    private static final Logger log = LoggerFactory.getLogger(BatchHandlerMethodListener.class);

    private final Object bean;
    private final Method method;
    private final Function<ReceivedMessage, Object> element;
    private final boolean returnsResult;

    private BatchHandlerMethodListener(Object bean, Method method, Function<ReceivedMessage, Object> element,
                                       boolean returnsResult) {
        this.bean = bean;
        this.method = method;
        this.element = element;
        this.returnsResult = returnsResult;
        ReflectionUtils.makeAccessible(method);
    }

    /** @throws IllegalArgumentException a parameter list or return type the starter cannot serve, named */
    static BatchHandlerMethodListener of(Object bean, Method declared, Method invocable, MessageConversion conversion) {
        Class<?> returned = declared.getReturnType();
        if (returned != void.class && returned != BatchResult.class) {
            throw new IllegalArgumentException("a batch listener method returns void or BatchResult, not " + returned.getName());
        }
        if (declared.getParameterCount() != 1 || declared.getParameterTypes()[0] != List.class
                || !(declared.getGenericParameterTypes()[0] instanceof ParameterizedType list)) {
            throw new IllegalArgumentException("a batch listener method (batchSize set) takes one parameter, a List of"
                    + " payloads or of ReceivedMessage; it has " + List.of(declared.getGenericParameterTypes()));
        }
        Type elementType = list.getActualTypeArguments()[0];
        Function<ReceivedMessage, Object> element = elementType == ReceivedMessage.class
                ? message -> message : message -> conversion.fromMessage(message, elementType);
        return new BatchHandlerMethodListener(bean, invocable, element, returned == BatchResult.class);
    }

    @Override
    public BatchResult consume(List<ReceivedMessage> messages) {
        List<Object> payloads = new ArrayList<>(messages.size());
        int[] positions = new int[messages.size()];
        List<Integer> unreadable = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            ReceivedMessage message = messages.get(i);
            try {
                payloads.add(element.apply(message));
                positions[payloads.size() - 1] = i;
            } catch (RuntimeException e) {
                log.warn("{}: message {} [logicTopic={}, attempt {}] cannot be read ({}); it is retried apart from its batch",
                        this, message.messageId(), message.logicTopic(), message.deliveryAttempt(), e.toString());
                unreadable.add(i);
            }
        }
        BatchResult answer = BatchResult.success();
        if (!payloads.isEmpty()) {
            Object returned = HandlerMethodListener.invoke(bean, method, new Object[] {payloads});
            answer = returnsResult ? (BatchResult) returned : BatchResult.success();
        }
        if (unreadable.isEmpty() || answer == null) {
            return answer;
        }
        List<Integer> retried = new ArrayList<>(unreadable);
        for (int j = 0; j < payloads.size(); j++) {
            if (answer.resultOf(j) != ConsumeResult.SUCCESS) {
                retried.add(positions[j]);
            }
        }
        return BatchResult.retryOnly(retried.stream().mapToInt(Integer::intValue).toArray());
    }

    @Override
    public String toString() {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName();
    }
}
