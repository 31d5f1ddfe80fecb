package io.lanemq.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.StreamSupport;
import java.util.stream.Collectors;

/**
 * Renders the reference page ({@code docs/platform-config-reference.md}) from the generated schema: every key by its
 * path, with its type, default and meaning, in the order the document's classes declare them. A section reached a
 * second time (a consumer group's keys are the consumer section's) points at its first table row instead of
 * repeating it.
 */
final class PlatformConfigReference {
    private final JsonNode definitions;
    private final Map<String, String> explainedAt = new HashMap<>();
    private final StringBuilder rows = new StringBuilder();

    private PlatformConfigReference(JsonNode schema) {
        this.definitions = schema.path("definitions");
    }

    static String markdown(String schemaJson) {
        JsonNode schema;
        try {
            schema = new ObjectMapper().readTree(schemaJson);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
        PlatformConfigReference page = new PlatformConfigReference(schema);
        page.properties("", schema);
        return """
                # Platform configuration reference

                <!-- Generated from the model by PlatformConfigSchemaTest: do not edit. Regenerate with
                     mvn -pl sdk/platform-config test -Dtest=PlatformConfigSchemaTest -Dregenerate -->

                %s

                Every key of the platform configuration document (YAML or JSON), as the SDK's parser
                (`PlatformConfigParser`, module `platform-config`) reads it. The parser is the judge of what is valid:
                it also checks ranges, names and how keys relate (a route's cluster must exist, weights must sum above
                0, PROXY mode needs the proxy section) and names the key and line of every problem; run
                `lanemq-config validate <file>` for that. The JSON Schema [`platform-config.schema.json`](platform-config.schema.json)
                holds the same keys for editors (see sdk/platform-config/README.md, "Editing the platform configuration"). A key not
                listed here is refused. `<name>` stands for a name you choose; `[]` for each entry of a list.

                | key | type | default | meaning |
                |---|---|---|---|
                %s""".formatted(schema.path("description").asText(), page.rows);
    }

    private void properties(String prefix, JsonNode object) {
        object.path("properties").fields().forEachRemaining(p -> key(prefix + (prefix.isEmpty() ? "" : ".") + p.getKey(),
                flattened(p.getValue()), required(object, p.getKey())));
    }

    private static boolean required(JsonNode object, String key) {
        return StreamSupport.stream(object.path("required").spliterator(), false).anyMatch(n -> n.asText().equals(key));
    }

    private void key(String path, JsonNode property, boolean required) {
        JsonNode shape = resolved(property);
        String defaultValue = property.has("default") ? "`" + property.get("default").asText() + "`" : required ? "required" : "";
        rows.append("| `").append(path).append("` | ").append(type(shape)).append(" | ").append(defaultValue).append(" | ")
                .append(property.path("description").asText().replace("|", "\\|")).append(" |\n");
        if (shape.has("items")) {
            section(path + "[]", shape.get("items"));
        } else if (shape.path("additionalProperties").isObject()) {
            section(path + ".<name>", shape.get("additionalProperties"));
        } else if (shape.has("properties")) {
            section(path, property);
        }
    }

    /**
     * Draft 7 ignores keywords beside a {@code $ref}, so the generator puts a referenced section's description and
     * default in an {@code allOf} with the reference: read here as one node again.
     */
    private static JsonNode flattened(JsonNode property) {
        if (!property.has("allOf")) {
            return property;
        }
        ObjectNode merged = JsonNodeFactory.instance.objectNode();
        property.get("allOf").forEach(part -> merged.setAll((ObjectNode) part));
        return merged;
    }

    /** The definition a {@code $ref} points at, else the node itself. */
    private JsonNode resolved(JsonNode node) {
        String ref = node.path("$ref").asText("");
        return ref.isEmpty() ? node : definitions.path(ref.substring(ref.lastIndexOf('/') + 1));
    }

    /** The keys of an object section: explained here the first time, else a pointer to where they were. */
    private void section(String path, JsonNode node) {
        String ref = node.path("$ref").asText("");
        if (ref.isEmpty()) {
            properties(path, node); // a section used once is inline
            return;
        }
        String name = ref.substring(ref.lastIndexOf('/') + 1);
        JsonNode definition = definitions.path(name);
        if (!definition.has("properties")) {
            return;
        }
        String first = explainedAt.putIfAbsent(name, path);
        if (first != null) {
            rows.append("| `").append(path).append(".*` | | | the keys of `").append(first).append("` |\n");
            return;
        }
        properties(path, definition);
    }

    private String type(JsonNode shape) {
        if (shape.has("enum")) {
            return StreamSupport.stream(shape.get("enum").spliterator(), false).map(JsonNode::asText)
                    .collect(Collectors.joining(" \\| "));
        }
        String type = shape.path("type").asText("");
        if (type.equals("array")) {
            return "list of " + itemType(resolved(shape.get("items")));
        }
        if (type.equals("object") && shape.path("additionalProperties").isObject()) {
            return "map of name to " + itemType(resolved(shape.get("additionalProperties")));
        }
        return type.equals("object") ? "section" : type;
    }

    private String itemType(JsonNode item) {
        return item.has("properties") ? "section" : type(item);
    }
}
