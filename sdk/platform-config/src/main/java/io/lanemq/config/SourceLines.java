package io.lanemq.config;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Which source line each key of a configuration document starts on, so a validation problem
 * found after parsing can still say "line 14". Jackson's tree model keeps no locations, hence one
 * streaming pass that records the line of every value by its JSON pointer.
 */
final class SourceLines {
    private final Map<String, Integer> lineByPointer;

    private SourceLines(Map<String, Integer> lineByPointer) {
        this.lineByPointer = lineByPointer;
    }

    static SourceLines index(JsonFactory factory, String text) throws IOException {
        Map<String, Integer> lines = new HashMap<>();
        try (JsonParser parser = factory.createParser(text)) {
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                if (token == JsonToken.FIELD_NAME || token == JsonToken.END_OBJECT || token == JsonToken.END_ARRAY) {
                    continue;
                }
                // For a value, the parsing context points at the value's own key or index.
                String pointer = (token.isStructStart() ? parser.getParsingContext().getParent() : parser.getParsingContext())
                        .pathAsPointer().toString();
                lines.putIfAbsent(pointer, parser.currentTokenLocation().getLineNr());
            }
        }
        return new SourceLines(lines);
    }

    /** The line of the pointer, or of its nearest ancestor present in the source; 0 when none. */
    int lineOf(String pointer) {
        for (String p = pointer; ; p = p.substring(0, p.lastIndexOf('/'))) {
            Integer line = lineByPointer.get(p);
            if (line != null) {
                return line;
            }
            if (p.isEmpty()) {
                return 0;
            }
        }
    }
}
