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
import java.util.Arrays;
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
 * <p>Each message's failure is settled by the listener's {@link FailurePolicy}, as a single listener's would be: a
 * message whose payload cannot be read is left out of the list (and dead-lettered at once unless conversion failures
 * are retried), a message the result retries or dead-letters, or all of a batch whose call threw, each go through
 * the policy, and so through the error handler one message at a time. One bad message does not hold its batch back.
 */
final class BatchHandlerMethodListener implements BatchMessageListener {
    private static final Logger log = LoggerFactory.getLogger(BatchHandlerMethodListener.class);

    private final Object bean;
    private final Method method;
    private final Function<ReceivedMessage, Object> element;
    private final boolean returnsResult;
    private final FailurePolicy policy;

    private BatchHandlerMethodListener(Object bean, Method method, Function<ReceivedMessage, Object> element,
                                       boolean returnsResult, FailurePolicy policy) {
        this.bean = bean;
        this.method = method;
        this.element = element;
        this.returnsResult = returnsResult;
        this.policy = policy;
        ReflectionUtils.makeAccessible(method);
    }

    /** @throws IllegalArgumentException a parameter list or return type the starter cannot serve, named */
    static BatchHandlerMethodListener of(Object bean, Method declared, Method invocable, MessageConversion conversion,
                                         FailurePolicy policy) {
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
        return new BatchHandlerMethodListener(bean, invocable, element, returned == BatchResult.class, policy);
    }

    @Override
    public BatchResult consume(List<ReceivedMessage> messages) {
        List<Object> payloads = new ArrayList<>(messages.size());
        List<Integer> positions = new ArrayList<>(messages.size());
        ConsumeResult[] results = new ConsumeResult[messages.size()];
        for (int i = 0; i < messages.size(); i++) {
            ReceivedMessage message = messages.get(i);
            try {
                payloads.add(element.apply(message));
                positions.add(i);
            } catch (RuntimeException e) {
                results[i] = policy.settle(toString(), message, null, e, false);
                if (results[i] == ConsumeResult.RETRY_LATER) {
                    log.warn("{}: message {} [logicTopic={}, attempt {}] cannot be read ({}); it is retried apart from its batch",
                            this, message.messageId(), message.logicTopic(), message.deliveryAttempt(), e.toString());
                }
            }
        }
        if (!payloads.isEmpty()) {
            BatchResult answer;
            try {
                Object returned = HandlerMethodListener.invoke(bean, method, new Object[] {payloads});
                answer = returnsResult ? (BatchResult) returned : BatchResult.success();
            } catch (RuntimeException | Error e) {
                return failedBatch(messages, positions, results, e);
            }
            for (int j = 0; j < positions.size(); j++) {
                ConsumeResult result = answer == null ? ConsumeResult.RETRY_LATER : answer.resultOf(j);
                int i = positions.get(j);
                results[i] = result == ConsumeResult.SUCCESS ? result : policy.settle(toString(), messages.get(i), result, null, false);
            }
        }
        return batchResult(results);
    }

    /**
     * The method threw: each message it was given is settled by the policy. When every one of them is simply retried,
     * the exception is rethrown, so the SDK logs it once and retries the batch as it does for any batch listener.
     */
    private BatchResult failedBatch(List<ReceivedMessage> messages, List<Integer> positions, ConsumeResult[] results,
                                    Throwable thrown) {
        boolean allRetried = true;
        for (int i : positions) {
            results[i] = policy.settle(toString(), messages.get(i), null, thrown, false);
            allRetried &= results[i] == ConsumeResult.RETRY_LATER;
        }
        if (allRetried && Arrays.stream(results).allMatch(r -> r == ConsumeResult.RETRY_LATER)) {
            FailurePolicy.rethrow(thrown);
        }
        if (allRetried) {
            log.warn("{} failed on a batch of {}; its messages are retried", this, positions.size(), thrown);
        }
        return batchResult(results);
    }

    private static BatchResult batchResult(ConsumeResult[] results) {
        List<Integer> retried = new ArrayList<>();
        List<Integer> dead = new ArrayList<>();
        for (int i = 0; i < results.length; i++) {
            if (results[i] == ConsumeResult.RETRY_LATER) {
                retried.add(i);
            } else if (results[i] == ConsumeResult.DEAD_LETTER) {
                dead.add(i);
            }
        }
        return BatchResult.retryOnly(retried.stream().mapToInt(Integer::intValue).toArray())
                .withDeadLetters(dead.stream().mapToInt(Integer::intValue).toArray());
    }

    @Override
    public String toString() {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName();
    }
}
