package io.lanemq.spring;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.MessageListener;
import io.lanemq.api.ReceivedMessage;

/** A listener whose failures its {@link FailurePolicy} settles: dead-lettered at once, retried, or handled. */
final class RecoveringListener implements MessageListener {
    private final MessageListener listener;
    private final FailurePolicy policy;

    RecoveringListener(MessageListener listener, FailurePolicy policy) {
        this.listener = listener;
        this.policy = policy;
    }

    @Override
    public ConsumeResult consume(ReceivedMessage message) {
        ConsumeResult result;
        try {
            result = listener.consume(message);
        } catch (RuntimeException | Error e) {
            return policy.settle(toString(), message, null, e, true);
        }
        if (result == ConsumeResult.SUCCESS) {
            return result;
        }
        return policy.settle(toString(), message, result == null ? ConsumeResult.RETRY_LATER : result, null, true);
    }

    @Override
    public String toString() {
        return listener.toString();
    }
}
