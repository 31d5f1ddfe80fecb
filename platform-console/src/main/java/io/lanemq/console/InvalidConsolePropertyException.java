package io.lanemq.console;

/** A {@code lanemq.console.*} property is missing or wrong; the message names it. */
public class InvalidConsolePropertyException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidConsolePropertyException(String property, String problem) {
        super(property + " " + problem);
    }

    public InvalidConsolePropertyException(String property, String problem, Throwable cause) {
        super(property + " " + problem, cause);
    }
}
