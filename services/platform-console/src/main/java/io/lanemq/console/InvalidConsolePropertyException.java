package io.lanemq.console;

/** A {@code lanemq.console.*} property is missing or wrong; the message names it. */
public class InvalidConsolePropertyException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final String property;

    public InvalidConsolePropertyException(String property, String problem) {
        super(property + " " + problem);
        this.property = property;
    }

    public InvalidConsolePropertyException(String property, String problem, Throwable cause) {
        super(property + " " + problem, cause);
        this.property = property;
    }

    /** The property to correct ({@code lanemq.console.tls-key-store}). */
    public String property() {
        return property;
    }
}
