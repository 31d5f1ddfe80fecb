package io.lanemq.spring;

/**
 * A {@code lanemq.*} property that is missing or that the SDK refused; the message starts with the
 * property's name, so a failed startup says which line of the application's configuration to fix.
 */
public class InvalidLaneMqPropertyException extends IllegalStateException {
    private final String property;

    public InvalidLaneMqPropertyException(String property, String problem) {
        super(property + " " + problem);
        this.property = property;
    }

    public InvalidLaneMqPropertyException(String property, String problem, Throwable cause) {
        super(property + ": " + problem, cause);
        this.property = property;
    }

    /** The property's name, such as {@code lanemq.config-location}. */
    public String property() {
        return property;
    }
}
