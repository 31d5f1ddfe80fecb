package io.lanemq.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.lanemq.testkit.RepoRoot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The published schema and reference page are what the model generates, and every platform configuration file in
 * the repository meets the schema (checked by networknt's validator, as an editor would) and is accepted by the
 * parser. Regenerate the two files with {@code mvn -pl sdk/platform-config test -Dtest=PlatformConfigSchemaTest -Dregenerate}.
 */
class PlatformConfigSchemaTest {
    private static final Path ROOT = RepoRoot.dir();
    private static final Path SCHEMA = ROOT.resolve("docs/platform-config.schema.json");
    private static final Path REFERENCE = ROOT.resolve("docs/platform-config-reference.md");
    private static final String REGENERATE = "mvn -B -ntp -pl sdk/platform-config test -Dtest=PlatformConfigSchemaTest -Dregenerate";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    void theCommittedSchemaAndReferenceAreWhatTheModelGenerates() throws IOException {
        String schema = PlatformConfigSchema.json();
        String reference = PlatformConfigReference.markdown(schema);
        if (System.getProperty("regenerate") != null) {
            Files.createDirectories(SCHEMA.getParent());
            Files.writeString(SCHEMA, schema, StandardCharsets.UTF_8);
            Files.writeString(REFERENCE, reference, StandardCharsets.UTF_8);
        }
        for (var expected : List.of(new Object[] {SCHEMA, schema}, new Object[] {REFERENCE, reference})) {
            Path file = (Path) expected[0];
            if (!Files.exists(file) || !Files.readString(file, StandardCharsets.UTF_8).equals(expected[1])) {
                fail(ROOT.relativize(file) + " is not what the model (RawPlatformConfig and the model's defaults) "
                        + "generates; regenerate it and commit the result: " + REGENERATE);
            }
        }
    }

    @Test
    void theSchemaStatesTheModelsDefaultsAndRefusesUnknownKeys() throws IOException {
        JsonNode schema = new ObjectMapper().readTree(PlatformConfigSchema.json());

        assertThat(schema.at("/properties/producer/properties/sendTimeoutMs/default").asLong())
                .isEqualTo(ProducerConfig.DEFAULTS.sendTimeout().toMillis());
        assertThat(schema.at("/definitions/batch/properties/maxMessages/default").asInt()).isEqualTo(BatchConfig.DEFAULTS.maxMessages());
        assertThat(schema.at("/definitions/consumer/properties/startFrom/enum").toString()).isEqualTo("[\"LATEST\",\"EARLIEST\"]");
        assertThat(schema.at("/definitions/delay/properties/maxDelayMs/default").asLong()).isEqualTo(DelayConfig.DEFAULTS.maxDelay().toMillis());
        assertThat(schema.at("/definitions/topic/properties/routes/items/properties/weight/default").asInt()).isEqualTo(PlatformConfigParser.DEFAULT_ROUTE_WEIGHT);
        assertThat(schema.at("/additionalProperties").asBoolean(true)).isFalse();
    }

    @Test
    void everyPlatformConfigurationFileInTheRepositoryMeetsTheSchemaAndParses() throws Exception {
        JsonSchema schema = committedSchema();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(ROOT)) {
            files = walk.filter(p -> p.toString().matches(".*\\.ya?ml"))
                    .filter(p -> ROOT.relativize(p).toString().split("/")[0].charAt(0) != '.')
                    .filter(p -> !p.toString().contains("/target/") && !p.toString().contains("/node_modules/"))
                    .filter(PlatformConfigSchemaTest::isPlatformConfiguration)
                    .sorted().toList();
        }

        assertThat(files).extracting(p -> ROOT.relativize(p).toString())
                .contains("examples/platform.yaml", "deploy/kubernetes/config/platform.yaml");
        for (Path file : files) {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            assertThat(schema.validate(YAML.readTree(text))).as("schema problems of " + ROOT.relativize(file)).isEmpty();
            new PlatformConfigParser().parse(text, file.toString()); // throws naming every problem
        }
    }

    @Test
    void theTestDocumentsTheParserAcceptsMeetTheSchema() throws Exception {
        JsonSchema schema = committedSchema();
        for (String document : List.of(ConfigDocuments.weights(70, 30), ConfigDocuments.weights(0, 1))) {
            new PlatformConfigParser().parse(document, "test");
            assertThat(schema.validate(YAML.readTree(document))).isEmpty();
        }
    }

    /** The validator is a real one: a misspelt key, a wrong enum value and a missing name server are each flagged. */
    @Test
    void theSchemaFlagsWhatAnEditorShouldUnderline() throws Exception {
        JsonSchema schema = committedSchema();
        String valid = ConfigDocuments.weights(50, 50);

        Set<ValidationMessage> typo = schema.validate(YAML.readTree(valid.replace("weight: 50 }", "weigth: 50 }")));
        Set<ValidationMessage> mode = schema.validate(YAML.readTree(valid + "consumer: { mode: PUSH }\n"));
        Set<ValidationMessage> missing = schema.validate(YAML.readTree(valid.replace(", nameServer: \"127.0.0.1:9877\"", "")));

        assertThat(typo).extracting(ValidationMessage::getMessage).anyMatch(m -> m.contains("weigth"));
        assertThat(mode).extracting(ValidationMessage::getMessage).anyMatch(m -> m.contains("$.consumer.mode"));
        assertThat(missing).extracting(ValidationMessage::getMessage).anyMatch(m -> m.contains("nameServer"));
    }

    private static JsonSchema committedSchema() throws IOException {
        return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7)
                .getSchema(Files.readString(SCHEMA, StandardCharsets.UTF_8));
    }

    /** A YAML document whose top level has clusters or topics: a platform configuration (the starter's files have lanemq). */
    private static boolean isPlatformConfiguration(Path file) {
        try {
            JsonNode root = YAML.readTree(file.toFile());
            return root != null && root.isObject() && (root.has("clusters") || root.has("topics"));
        } catch (IOException notOneYamlDocument) {
            return false; // multi-document manifests, templates: not a platform configuration
        }
    }
}
