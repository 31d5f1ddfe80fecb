package io.lanemq.spring;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.MessageListener;
import io.lanemq.api.ReceivedMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A listener whose failures on a message's last delivery attempt go to its {@link LaneMqErrorHandler} first. */
final class RecoveringListener implements MessageListener {
    private static final Logger log = LoggerFactory.getLogger(RecoveringListener.class);

    private final MessageListener listener;
    private final LaneMqErrorHandler handler;
    private final String handlerName;

    RecoveringListener(MessageListener listener, LaneMqErrorHandler handler, String handlerName) {
        this.listener = listener;
        this.handler = handler;
        this.handlerName = handlerName;
    }

    @Override
    public ConsumeResult consume(ReceivedMessage message) {
        if (!message.lastDeliveryAttempt()) {
            return listener.consume(message);
        }
        Throwable failure;
        boolean thrown = false;
        try {
            ConsumeResult result = listener.consume(message);
            if (result == ConsumeResult.SUCCESS) {
                return result;
            }
            failure = new IllegalStateException(listener + " answered " + result + " on the last delivery attempt ("
                    + message.deliveryAttempt() + ")");
        } catch (RuntimeException | Error e) {
            failure = e;
            thrown = true;
        }
        try {
            LaneMqErrorHandler.Resolution resolution = handler.handle(message, failure);
            if (resolution == LaneMqErrorHandler.Resolution.ACKNOWLEDGE) {
                return ConsumeResult.SUCCESS;
            }
        } catch (RuntimeException e) {
            e.addSuppressed(failure);
            log.error("error handler '{}' of {} failed on {}; the message goes to the dead-letter topic", handlerName, listener,
                    message, e);
            return ConsumeResult.RETRY_LATER;
        }
        if (!thrown) {
            return ConsumeResult.RETRY_LATER;
        }
        if (failure instanceof RuntimeException runtime) {
            // The SDK logs it once, as for any failed listener, and the binding dead-letters the message.
            throw runtime;
        }
        throw (Error) failure;
    }

    @Override
    public String toString() {
        return listener.toString();
    }
}
