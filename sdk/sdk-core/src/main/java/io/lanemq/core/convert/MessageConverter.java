package io.lanemq.core.convert;

import java.lang.reflect.Type;

/**
 * Turns application objects into message bodies and back for one content type, such as {@code application/json}.
 * The content type travels with the message in the {@link MessageConversion#CONTENT_TYPE_PROPERTY} property, so a
 * listener reads each message with the converter that wrote it. Register one with
 * {@link MessageConversion.Builder#converter(MessageConverter)}.
 *
 * <p>Implementations are thread-safe: one instance serves every producer and listener thread.
 *
 * <pre>{@code
 * final class ProtobufConverter implements MessageConverter {
 *     public String contentType() { return "application/x-protobuf"; }
 *     public boolean canWrite(Object payload) { return payload instanceof com.google.protobuf.Message; }
 *     public byte[] write(Object payload) { return ((com.google.protobuf.Message) payload).toByteArray(); }
 *     public Object read(byte[] body, Type type) { ... }
 * }
 * }</pre>
 */
public interface MessageConverter {
    /** The media type this converter writes and reads, without parameters: {@code application/json}. */
    String contentType();

    /** Whether {@link #write} takes this payload; the default converter is asked last and should take anything it can. */
    default boolean canWrite(Object payload) {
        return true;
    }

    /**
     * The body of a message carrying {@code payload}; never empty (a message needs a body).
     *
     * @throws RuntimeException the payload cannot be written; the send fails before anything reaches a broker
     */
    byte[] write(Object payload);

    /**
     * The object of {@code type} that {@code body} holds; {@code type} may be generic ({@code List<Order>}).
     *
     * @throws RuntimeException the body is not a {@code type}; the listener sees a {@link MessageConversionException}
     */
    Object read(byte[] body, Type type);
}
