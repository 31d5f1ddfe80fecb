package io.lanemq.dialtest;

/** The dial test cannot start or go on; the message names the name server, broker or setting concerned. */
public final class DialTestException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public DialTestException(String message) {
        super(message);
    }

    public DialTestException(String message, Throwable cause) {
        super(message, cause);
    }
}
