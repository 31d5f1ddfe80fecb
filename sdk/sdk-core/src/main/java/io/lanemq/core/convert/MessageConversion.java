package io.lanemq.core.convert;

import io.lanemq.api.Message;
import io.lanemq.api.MessageListener;
import io.lanemq.api.ReceivedMessage;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Typed messages: a payload object becomes a {@link Message} whose {@value #CONTENT_TYPE_PROPERTY} property names its
 * content type, and a {@link ReceivedMessage} becomes the object a listener asks for, read by the converter of the
 * content type the message carries. Immutable and thread-safe; share one.
 *
 * <p>Bytes and text stay what they are: a {@code byte[]} payload is the body as it is
 * ({@code application/octet-stream}), a {@code String} its UTF-8 bytes ({@code text/plain}); a listener that asks
 * for {@code byte[]} or {@code String} gets the body or its UTF-8 text whatever the content type. Anything else goes
 * through the registered converters, the first whose {@link MessageConverter#canWrite} takes it, else the default
 * converter (JSON unless set). A message without a content type (from a producer that sends bytes) is read with the
 * default converter.
 *
 * <pre>{@code
 * MessageConversion conversion = MessageConversion.defaults();    // JSON
 * producer.send(conversion.toMessage("order-paid", new OrderPaid(42, Instant.now())).keys("order-42").build());
 *
 * client.subscribe(Subscription.builder("order-paid", "billing").build(),
 *         conversion.listener(OrderPaid.class, (paid, message) -> {
 *             billing.charge(paid.orderId());
 *             return ConsumeResult.SUCCESS;
 *         }));
 * }</pre>
 */
public final class MessageConversion {
    /** The message property holding the body's content type. */
    public static final String CONTENT_TYPE_PROPERTY = "LANEMQ_CONTENT_TYPE";
    /** The content type of a {@code byte[]} payload. */
    public static final String BYTES = "application/octet-stream";
    /** The content type of a {@code String} payload (UTF-8). */
    public static final String TEXT = "text/plain";

    private static final MessageConversion DEFAULTS = builder().build();

    /** By content type, lower case, in registration order. */
    private final Map<String, MessageConverter> converters;
    private final MessageConverter defaultConverter;

    private MessageConversion(Builder builder) {
        this.converters = new LinkedHashMap<>(builder.converters);
        this.defaultConverter = builder.defaultConverter;
        converters.putIfAbsent(mediaType(defaultConverter.contentType()), defaultConverter);
    }

    /** JSON by default, through the SDK's own mapper ({@link JsonMessageConverter#JsonMessageConverter()}). */
    public static MessageConversion defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The converter used for payloads no other converter takes, and for messages without a content type. */
    public MessageConverter defaultConverter() {
        return defaultConverter;
    }

    /**
     * A message builder for {@code logicTopic} whose body is {@code payload} and whose content type property says
     * how it was written; set keys, tag, sharding key or a due time on it, then build.
     *
     * @throws MessageConversionException the payload's converter cannot write it
     */
    public Message.Builder toMessage(String logicTopic, Object payload) {
        Objects.requireNonNull(payload, () -> "payload must not be null [logicTopic=" + logicTopic + "]");
        Message.Builder builder = Message.builder(logicTopic);
        if (payload instanceof byte[] bytes) {
            return builder.body(bytes).property(CONTENT_TYPE_PROPERTY, BYTES);
        }
        if (payload instanceof String text) {
            return builder.body(text.getBytes(StandardCharsets.UTF_8)).property(CONTENT_TYPE_PROPERTY, TEXT);
        }
        MessageConverter converter = writerOf(payload);
        byte[] body;
        try {
            body = converter.write(payload);
        } catch (RuntimeException e) {
            throw new MessageConversionException("cannot write " + payload.getClass().getName() + " as "
                    + converter.contentType() + " [logicTopic=" + logicTopic + "]: " + e.getMessage(), e);
        }
        return builder.body(body).property(CONTENT_TYPE_PROPERTY, converter.contentType());
    }

    private MessageConverter writerOf(Object payload) {
        for (MessageConverter converter : converters.values()) {
            if (converter != defaultConverter && converter.canWrite(payload)) {
                return converter;
            }
        }
        return defaultConverter;
    }

    /** The payload of {@code message} as a {@code type}. */
    public <T> T fromMessage(ReceivedMessage message, Class<T> type) {
        return type.cast(fromMessage(message, (Type) type));
    }

    /**
     * The payload of {@code message} as a {@code type}, which may be generic ({@code List<Order>}): read by the
     * converter of the message's content type, or the default one when it has none.
     *
     * @throws MessageConversionException the content type has no converter here, or the body is not a {@code type}
     */
    public Object fromMessage(ReceivedMessage message, Type type) {
        Objects.requireNonNull(type, "type");
        if (type == byte[].class) {
            return message.body();
        }
        if (type == String.class) {
            return new String(message.body(), StandardCharsets.UTF_8);
        }
        String contentType = message.properties().get(CONTENT_TYPE_PROPERTY);
        MessageConverter converter = contentType == null ? defaultConverter : converters.get(mediaType(contentType));
        if (converter == null) {
            throw new MessageConversionException("cannot read " + describe(message) + " as " + type.getTypeName()
                    + ": no converter for its content type '" + contentType + "'; converters here: " + converters.keySet(), null);
        }
        try {
            Object payload = converter.read(message.body(), type);
            if (payload == null) {
                throw new IllegalArgumentException("the body reads as null");
            }
            return payload;
        } catch (RuntimeException e) {
            throw new MessageConversionException("cannot read " + describe(message) + " as " + type.getTypeName() + " ("
                    + converter.contentType() + "): " + e.getMessage(), e);
        }
    }

    /** A listener that receives each message's payload as a {@code type}; a body that is not one is retried like any failure. */
    public <T> MessageListener listener(Class<T> type, TypedMessageListener<T> listener) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(listener, "listener");
        return message -> {
            try {
                return listener.consume(fromMessage(message, type), message);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        };
    }

    private static String describe(ReceivedMessage message) {
        return "message " + message.messageId() + " [logicTopic=" + message.logicTopic() + "]";
    }

    /** The media type without parameters, lower case: {@code Application/JSON; charset=utf-8} is {@code application/json}. */
    static String mediaType(String contentType) {
        int parameters = contentType.indexOf(';');
        return (parameters < 0 ? contentType : contentType.substring(0, parameters)).strip().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return "MessageConversion[default=" + defaultConverter.contentType() + ", converters=" + converters.keySet() + "]";
    }

    /** Builds a {@link MessageConversion}; not thread-safe. */
    public static final class Builder {
        private final Map<String, MessageConverter> converters = new LinkedHashMap<>();
        private MessageConverter defaultConverter;

        private Builder() {
        }

        /**
         * Adds a converter for its content type; payloads it {@linkplain MessageConverter#canWrite can write} go
         * through it, asked in the order added.
         *
         * @throws IllegalArgumentException a converter for the same content type was added already, or it claims bytes or text
         */
        public Builder converter(MessageConverter converter) {
            Objects.requireNonNull(converter, "converter");
            String type = mediaType(Objects.requireNonNull(converter.contentType(), "converter.contentType()"));
            if (type.isEmpty() || type.equals(BYTES) || type.equals(TEXT)) {
                throw new IllegalArgumentException("converter " + converter + " has content type '" + converter.contentType()
                        + "': bytes and text are built in, and a converter needs a media type of its own");
            }
            MessageConverter previous = converters.putIfAbsent(type, converter);
            if (previous != null) {
                throw new IllegalArgumentException("two converters for content type '" + type + "': " + previous + " and " + converter);
            }
            return this;
        }

        /** The converter for payloads no other takes and messages without a content type; JSON unless set. Also registered. */
        public Builder defaultConverter(MessageConverter converter) {
            Objects.requireNonNull(converter, "defaultConverter");
            String type = mediaType(converter.contentType());
            MessageConverter registered = converters.get(type);
            if (registered != null && registered != converter) {
                throw new IllegalArgumentException("two converters for content type '" + type + "': " + registered + " and " + converter);
            }
            this.defaultConverter = converter;
            return this;
        }

        public MessageConversion build() {
            if (defaultConverter == null) {
                MessageConverter json = converters.get(JsonMessageConverter.CONTENT_TYPE);
                defaultConverter = json != null ? json : new JsonMessageConverter();
            }
            return new MessageConversion(this);
        }
    }
}
