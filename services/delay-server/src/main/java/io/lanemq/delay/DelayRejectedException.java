package io.lanemq.delay;

/**
 * A record the engine will not take: its due time is further ahead than the configured maximum
 * delay, or it is larger than the largest record the store accepts. Retrying will not help.
 */
public final class DelayRejectedException extends DelayEngineException {

    private static final long serialVersionUID = 1L;

    public DelayRejectedException(String message) {
        super(message);
    }
}
