package io.lanemq.core.convert;

/**
 * A payload that could not be written into a message, or a message body that is not the type a listener asked
 * for. The message names the logic topic, the content type and the type involved; for a received message also its id.
 */
public class MessageConversionException extends RuntimeException {
    public MessageConversionException(String message, Throwable cause) {
        super(message, cause);
    }
}
