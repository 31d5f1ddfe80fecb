package io.lanemq.spring;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code lanemq.retry.*}: what every {@link LaneMqListener} of the application retries, unless the listener says
 * otherwise. A failure that can never succeed goes to the group's dead-letter topic at once instead of using every
 * delivery attempt.
 *
 * <pre>
 * lanemq.retry.not-retryable=com.example.orders.RejectedOrderException,java.lang.IllegalArgumentException
 * lanemq.retry.retry-conversion-failures=false
 * </pre>
 */
public class RetryProperties {
    /**
     * Exception types never retried, by any listener: a failure that is one of them, or caused by one, dead-letters its
     * message at once. A listener adds its own with {@link LaneMqListener#notRetryable()}.
     */
    private List<Class<? extends Throwable>> notRetryable = new ArrayList<>();

    /**
     * Whether a payload that cannot be converted to the listener's parameter type is retried; by default it is not
     * (another attempt reads the same bytes), and goes to the dead-letter topic at once.
     */
    private boolean retryConversionFailures;

    public List<Class<? extends Throwable>> getNotRetryable() {
        return notRetryable;
    }

    public void setNotRetryable(List<Class<? extends Throwable>> notRetryable) {
        this.notRetryable = notRetryable;
    }

    public boolean isRetryConversionFailures() {
        return retryConversionFailures;
    }

    public void setRetryConversionFailures(boolean retryConversionFailures) {
        this.retryConversionFailures = retryConversionFailures;
    }
}
