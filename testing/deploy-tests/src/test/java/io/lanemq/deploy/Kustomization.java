package io.lanemq.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A kustomization read the way kustomize reads it, as far as this base uses it: {@code resources} (files, or
 * directories holding their own kustomization), {@code configMapGenerator} with {@code files} (the key is the
 * file's name) and {@code generatorOptions.labels}. Anything else in a kustomization file fails the read, so
 * a feature this reader does not know cannot be silently skipped by the checks. No kubectl needed.
 */
final class Kustomization {
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final List<String> KNOWN = List.of("apiVersion", "kind", "namespace", "labels", "resources",
            "configMapGenerator", "generatorOptions", "images");

    /** One document of a resource file. */
    record Resource(Path file, JsonNode document) {
        String kind() {
            return document.path("kind").asText();
        }

        String name() {
            return document.path("metadata").path("name").asText();
        }
    }

    /** A ConfigMap a generator makes: its keys and the files they come from. */
    record GeneratedConfigMap(String name, Map<String, Path> files, Map<String, String> labels) {
    }

    final List<Resource> resources = new ArrayList<>();
    final List<GeneratedConfigMap> configMaps = new ArrayList<>();
    final String namespace;

    private Kustomization(String namespace) {
        this.namespace = namespace;
    }

    static Kustomization read(Path dir) {
        JsonNode root = readOne(dir.resolve("kustomization.yaml"));
        Kustomization k = new Kustomization(root.path("namespace").asText(null));
        k.add(dir, root);
        return k;
    }

    private void add(Path dir, JsonNode kustomization) {
        kustomization.fieldNames().forEachRemaining(field -> {
            if (!KNOWN.contains(field)) {
                throw new IllegalStateException(dir.resolve("kustomization.yaml") + ": '" + field
                        + "' is not understood by the checks' reader; teach Kustomization.java first");
            }
        });
        for (JsonNode entry : kustomization.path("resources")) {
            Path path = dir.resolve(entry.asText()).normalize();
            if (Files.isDirectory(path)) {
                add(path, readOne(path.resolve("kustomization.yaml")));
            } else {
                readAll(path).forEach(document -> resources.add(new Resource(path, document)));
            }
        }
        Map<String, String> labels = new LinkedHashMap<>();
        kustomization.path("generatorOptions").path("labels").fields()
                .forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
        for (JsonNode generator : kustomization.path("configMapGenerator")) {
            Map<String, Path> files = new LinkedHashMap<>();
            for (JsonNode file : generator.path("files")) {
                Path path = dir.resolve(file.asText()).normalize();
                if (!Files.isRegularFile(path)) {
                    throw new IllegalStateException(dir + ": configMapGenerator " + generator.path("name").asText()
                            + " names a missing file " + path);
                }
                files.put(path.getFileName().toString(), path);
            }
            configMaps.add(new GeneratedConfigMap(generator.path("name").asText(), files, labels));
        }
    }

    static JsonNode readOne(Path file) {
        List<JsonNode> all = readAll(file);
        if (all.size() != 1) {
            throw new IllegalStateException(file + ": expected one YAML document, found " + all.size());
        }
        return all.get(0);
    }

    static List<JsonNode> readAll(Path file) {
        try (YAMLParser parser = ((YAMLFactory) YAML.getFactory()).createParser(file.toFile())) {
            List<JsonNode> documents = new ArrayList<>();
            YAML.readValues(parser, JsonNode.class).forEachRemaining(node -> {
                if (node != null && !node.isMissingNode() && !(node instanceof ObjectNode o && o.isEmpty())) {
                    documents.add(node);
                }
            });
            return documents;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
