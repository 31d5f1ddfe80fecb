package io.lanemq.api;

/** The message breaks a platform rule (too large, reserved property name...); nothing was sent. */
public class InvalidMessageException extends MessagingException {
    public InvalidMessageException(String reason, String logicTopic) {
        super(reason, logicTopic, null);
    }
}
