package io.lanemq.core.convert;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Type;
import java.util.Objects;

/**
 * JSON through Jackson: the default converter. Without a mapper of the application's it uses one set as Spring Boot
 * sets its own ({@code java.time} as ISO-8601 text, {@code Optional} fields, unknown properties ignored), so a
 * producer on the SDK alone and a listener in a Spring Boot application agree, and a consumer still reads a message
 * that a newer producer added a field to. Thread-safe (Jackson's mappers are, once configured).
 */
public final class JsonMessageConverter implements MessageConverter {
    /** The content type this converter writes. */
    public static final String CONTENT_TYPE = "application/json";

    private final ObjectMapper mapper;

    /** With the SDK's own mapper (see the class comment). */
    public JsonMessageConverter() {
        this(JsonMapper.builder().addModule(new JavaTimeModule()).addModule(new Jdk8Module())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .build());
    }

    /** With the application's mapper, such as the one Spring Boot configures from {@code spring.jackson.*}. */
    public JsonMessageConverter(ObjectMapper mapper) {
        this.mapper = Objects.requireNonNull(mapper, "mapper");
    }

    @Override
    public String contentType() {
        return CONTENT_TYPE;
    }

    @Override
    public byte[] write(Object payload) {
        try {
            return mapper.writeValueAsBytes(payload);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e.getOriginalMessage(), e);
        }
    }

    @Override
    public Object read(byte[] body, Type type) {
        try {
            return mapper.readValue(body, mapper.constructType(type));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return "JsonMessageConverter[" + CONTENT_TYPE + "]";
    }
}
