package io.lanemq.spring;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.core.convert.MessageConversionException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a listener's failure on one message becomes: a failure that can never succeed (an exception type declared not
 * retryable, anywhere in the cause chain, or a payload that cannot be read unless conversion failures are retried) and
 * a {@code DEAD_LETTER} answer go to the dead-letter topic at once; any other failure is retried, until the last
 * attempt. At a final failure (dead-lettered now, or failed its last attempt) the listener's
 * {@link LaneMqErrorHandler}, if any, has the last word. One policy serves single and batch listeners alike, so a batch
 * settles each of its messages exactly as a single listener would.
 */
final class FailurePolicy {
    private static final Logger log = LoggerFactory.getLogger(FailurePolicy.class);

    private final List<Class<? extends Throwable>> notRetryable;
    private final boolean retryConversionFailures;
    private final LaneMqErrorHandler handler;
    private final String handlerName;

    /** @param handler null: none */
    FailurePolicy(List<Class<? extends Throwable>> notRetryable, boolean retryConversionFailures, LaneMqErrorHandler handler,
                  String handlerName) {
        this.notRetryable = List.copyOf(notRetryable);
        this.retryConversionFailures = retryConversionFailures;
        this.handler = handler;
        this.handlerName = handlerName;
    }

    /** True when nothing here changes what the SDK would do: no handler, no types declared, conversions retried. */
    boolean isDefault() {
        return handler == null && notRetryable.isEmpty() && retryConversionFailures;
    }

    /** Whether {@code failure}, or one of its causes, can never succeed on another attempt. */
    boolean notRetryable(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (!retryConversionFailures && cause instanceof MessageConversionException) {
                return true;
            }
            for (Class<? extends Throwable> type : notRetryable) {
                if (type.isInstance(cause)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The outcome of a message the listener did not process: it answered {@code answer} (RETRY_LATER or DEAD_LETTER),
     * or threw {@code thrown} ({@code answer} is then ignored). A retried failure is RETRY_LATER, or with
     * {@code rethrow} its exception is rethrown, so the SDK logs it once as any listener's failure (not after an error
     * handler that failed: that is logged here).
     */
    ConsumeResult settle(String listener, ReceivedMessage message, ConsumeResult answer, Throwable thrown, boolean rethrow) {
        boolean rejected = thrown != null ? notRetryable(thrown) : answer == ConsumeResult.DEAD_LETTER;
        if (!rejected && (handler == null || !message.lastDeliveryAttempt())) {
            return retried(thrown, rethrow);
        }
        Throwable failure = thrown != null ? thrown : new IllegalStateException(listener + " answered " + answer
                + (rejected ? "" : " on the last delivery attempt (" + message.deliveryAttempt() + ")"));
        if (rejected && thrown != null) {
            log.warn("{} failed on {} with a failure that is not retried; it goes to the dead-letter topic now", listener,
                    message, thrown);
        }
        if (handler != null) {
            try {
                if (handler.handle(message, failure) == LaneMqErrorHandler.Resolution.ACKNOWLEDGE) {
                    return ConsumeResult.SUCCESS;
                }
            } catch (RuntimeException e) {
                e.addSuppressed(failure);
                log.error("error handler '{}' of {} failed on {}; the message goes to the dead-letter topic", handlerName,
                        listener, message, e);
                return rejected ? ConsumeResult.DEAD_LETTER : ConsumeResult.RETRY_LATER;
            }
        }
        // A retried failure's last attempt: the binding dead-letters it as it would without a handler.
        return rejected ? ConsumeResult.DEAD_LETTER : retried(thrown, rethrow);
    }

    private static ConsumeResult retried(Throwable thrown, boolean rethrow) {
        if (rethrow) {
            rethrow(thrown);
        }
        return ConsumeResult.RETRY_LATER;
    }

    /** Rethrows an unchecked {@code thrown}; does nothing for null. */
    static void rethrow(Throwable thrown) {
        if (thrown instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (thrown instanceof Error error) {
            throw error;
        }
    }
}
