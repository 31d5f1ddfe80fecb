package io.lanemq.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.github.victools.jsonschema.module.jackson.JacksonModule;
import io.lanemq.config.RawPlatformConfig.RawBatch;
import io.lanemq.config.RawPlatformConfig.RawCluster;
import io.lanemq.config.RawPlatformConfig.RawConsumer;
import io.lanemq.config.RawPlatformConfig.RawDelay;
import io.lanemq.config.RawPlatformConfig.RawProducer;
import io.lanemq.config.RawPlatformConfig.RawRoute;
import io.lanemq.config.RawPlatformConfig.RawStressTest;
import io.lanemq.config.RawPlatformConfig.RawTopic;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Set;

/**
 * Generates the platform configuration's JSON Schema from the document's shape ({@link RawPlatformConfig}, the
 * classes the parser reads into) with victools' generator: keys, types, enums and descriptions from those classes,
 * defaults from what {@link PlatformConfigWriter} writes for a snapshot that sets nothing (so the schema states the
 * model's defaults, never a copy of them). Unknown keys are refused, as the parser refuses them. Draft 7, the latest
 * draft yaml-language-server (VS Code's YAML extension) reads; IntelliJ reads it too.
 */
final class PlatformConfigSchema {
    /** The keys without which the parser always refuses a document (the rest it reports in context). */
    private static final Set<String> REQUIRED = Set.of("RawPlatformConfig.clusters", "RawCluster.idc",
            "RawCluster.nameServer", "RawRoute.cluster", "RawRoute.physicalTopic");
    /** Where a section's defaults are in the written default snapshot. */
    private static final Map<Class<?>, String> SECTIONS = Map.of(RawProducer.class, "/producer",
            RawBatch.class, "/producer/batch", RawConsumer.class, "/consumer", RawDelay.class, "/delay",
            RawStressTest.class, "/stressTest");

    /** The consumer keys the writer leaves out at their defaults, with those defaults. */
    private static final Map<String, Object> CONSUMER_KEYS_LEFT_OUT = Map.of(
            "maxInFlight", ConsumerConfig.DEFAULTS.maxInFlight(),
            "maxPerSecond", ConsumerConfig.DEFAULTS.maxPerSecond(),
            "deduplicateWindowMs", ConsumerConfig.DEFAULTS.deduplicateWindow().toMillis(),
            "deduplicateBy", ConsumerConfig.DEFAULTS.deduplicateBy().name());

    private PlatformConfigSchema() {
    }

    /** The schema, as the committed file holds it (two-space indent, trailing newline). */
    static String json() {
        JsonNode defaults = defaults();
        SchemaGeneratorConfigBuilder config = new SchemaGeneratorConfigBuilder(SchemaVersion.DRAFT_7,
                OptionPreset.PLAIN_JSON)
                .with(new JacksonModule())
                .with(Option.FORBIDDEN_ADDITIONAL_PROPERTIES_BY_DEFAULT, Option.MAP_VALUES_AS_ADDITIONAL_PROPERTIES);
        config.forTypesInGeneral()
                .withPropertySorter((a, b) -> 0) // declaration order: the order the reference page explains them in
                .withDefinitionNamingStrategy((key, context) -> key.getType().isInstanceOf(Map.class)
                        ? definitionName(key.getType().getTypeParameters().get(1).getErasedType()) + "s"
                        : definitionName(key.getType().getErasedType()));
        config.forFields()
                .withRequiredCheck(field -> REQUIRED.contains(field.getDeclaringType().getErasedType().getSimpleName()
                        + "." + field.getName()))
                .withDefaultResolver(field -> defaultOf(defaults, field.getDeclaringType().getErasedType(), field.getName()));
        ObjectNode schema = new SchemaGenerator(config.build()).generateSchema(RawPlatformConfig.class);
        ObjectNode ordered = schema.objectNode();
        ordered.put("$schema", schema.get("$schema").asText());
        ordered.put("title", "LaneMQ platform configuration");
        schema.remove("$schema");
        ordered.setAll(schema);
        try {
            return new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(ordered)
                    .replace("\r\n", "\n") + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code RawConsumer} is {@code consumer} in the schema's {@code definitions}, as the document names the section. */
    static String definitionName(Class<?> type) {
        String name = type.getSimpleName().replaceFirst("^Raw", "");
        return Character.toLowerCase(name.charAt(0)) + name.substring(1);
    }

    /** A snapshot that sets only what has no default (one cluster), written: every other value is the model's default. */
    private static JsonNode defaults() {
        try {
            PlatformConfig nothingSet = PlatformConfig.builder()
                    .cluster(new ClusterConfig("c", "i", "127.0.0.1:9876", Map.of())).build();
            return new ObjectMapper(new YAMLFactory()).readTree(new PlatformConfigWriter().toYaml(nothingSet));
        } catch (InvalidPlatformConfigException | JsonProcessingException e) {
            throw new IllegalStateException("the default snapshot must be valid and readable", e);
        }
    }

    private static Object defaultOf(JsonNode defaults, Class<?> section, String key) {
        if (section == RawTopic.class) {
            // What the parser takes for an absent key: no rate limit, no stress-test traffic.
            return switch (key) {
                case "rateLimitPerSecond" -> 0;
                case "stressTest" -> false;
                default -> null;
            };
        }
        if (section == RawRoute.class) {
            return "weight".equals(key) ? PlatformConfigParser.DEFAULT_ROUTE_WEIGHT : null;
        }
        if (section == RawCluster.class || !SECTIONS.containsKey(section)) {
            return null;
        }
        JsonNode value = defaults.at(SECTIONS.get(section) + "/" + key);
        if (value.isContainerNode()) {
            return null; // a section's defaults are its keys'
        }
        if (value.isMissingNode()) {
            // The writer leaves out what is off by default (PROXY flow limits at 0, deduplication): the model's values.
            return section == RawConsumer.class ? CONSUMER_KEYS_LEFT_OUT.get(key) : null;
        }
        return value.isNumber() ? value.numberValue() : value.isBoolean() ? value.booleanValue() : value.asText();
    }
}
