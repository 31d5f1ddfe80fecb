package io.lanemq.api;

/** The platform configuration (or client options) could not be read or broke a rule; the message names the key. */
public class InvalidConfigurationException extends MessagingException {
    public InvalidConfigurationException(String reason, Throwable cause) {
        super(reason, null, null, cause);
    }

    public InvalidConfigurationException(String reason) {
        this(reason, null);
    }
}
