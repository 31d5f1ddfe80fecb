package io.lanemq.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.DeserializationProblemHandler;
import java.io.IOException;
import java.util.regex.Pattern;

/**
 * Keeps secrets out of the platform configuration: every application, console user and log reads that document, so a
 * key named like a secret ({@code secretKey}, {@code password}, {@code accessKey}, {@code token}) is refused wherever
 * it appears, naming the key and where the value belongs instead. The value is never echoed.
 */
final class SecretKeys extends DeserializationProblemHandler {

    private static final Pattern SECRET_LIKE =
            Pattern.compile("(?i).*(secret|password|passwd|accesskey|access_key|token|credential).*");

    static final String WHERE_INSTEAD = "a secret never goes in the platform configuration, which every application and "
            + "console user reads; name where it lives instead: credentials: {accessKeyEnv: VAR, secretKeyEnv: VAR} or "
            + "credentials: {file: /path/to/keys.properties}";

    static boolean looksSecret(String key) {
        return key != null && SECRET_LIKE.matcher(key).matches();
    }

    /** An unknown key named like a secret fails with {@link #WHERE_INSTEAD}; any other keeps Jackson's own error. */
    @Override
    public boolean handleUnknownProperty(DeserializationContext context, JsonParser parser,
                                         JsonDeserializer<?> deserializer, Object bean, String key) throws IOException {
        if (looksSecret(key)) {
            // The key joins the path, as Jackson's own unknown-key error does, so the problem names it with its line.
            JsonMappingException refused = JsonMappingException.from(parser, WHERE_INSTEAD);
            refused.prependPath(bean, key);
            throw refused;
        }
        return false;
    }
}
