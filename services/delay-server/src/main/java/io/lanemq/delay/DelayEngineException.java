package io.lanemq.delay;

/** Base of the engine's checked exceptions; the message names the record or file involved. */
public class DelayEngineException extends Exception {

    private static final long serialVersionUID = 1L;

    public DelayEngineException(String message) {
        super(message);
    }

    public DelayEngineException(String message, Throwable cause) {
        super(message, cause);
    }
}
