package io.lanemq.delay;

/**
 * The store could not write: disk full, a device turned read-only, a file it cannot open. The
 * record was not stored (do not acknowledge it upstream); the engine keeps delivering what it
 * already holds, and {@link DelayEngine#health()} reports the failure until a write succeeds.
 */
public final class DelayStoreException extends DelayEngineException {

    private static final long serialVersionUID = 1L;

    public DelayStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
