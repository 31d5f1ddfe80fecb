package io.lanemq.proxy.boot;

/** A {@code lanemq.proxy.*} value the proxy cannot start with; the message begins with the property's name. */
public final class InvalidProxyPropertyException extends IllegalArgumentException {
    private final String property;

    InvalidProxyPropertyException(String property, String problem) {
        this(property, problem, null);
    }

    InvalidProxyPropertyException(String property, String problem, Throwable cause) {
        super(property + ": " + problem, cause);
        this.property = property;
    }

    /** The full property name, e.g. {@code lanemq.proxy.ack-timeout}. */
    public String property() {
        return property;
    }
}
