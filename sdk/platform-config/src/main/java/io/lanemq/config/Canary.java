package io.lanemq.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.lanemq.api.InvalidConfigurationException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;

/**
 * A candidate document published to some clients only, beside the configuration everyone else keeps.
 *
 * <p>It lives in its own place, next to the configuration: etcd key {@code <key>.canary}, file
 * {@code <file>.canary} (a second key of the same ConfigMap). The configuration itself is never touched by a canary,
 * so a client that knows nothing of canaries, or is not chosen, reads exactly what it read before; abandoning is
 * deleting the canary, and promoting is one etcd transaction that writes the candidate as the configuration and
 * deletes the canary. Its form is a small YAML or JSON mapping: {@code base}, {@code instances}, {@code applications},
 * {@code percent} (see {@link CanaryTarget}) and {@code document}, the whole candidate.
 *
 * @param base     the configuration's etcd revision the candidate was made from: a client applies the candidate only
 *                 while the configuration is still at that revision, so a change published around the canary (or its
 *                 promotion) is never shadowed by an older candidate; 0 for a file, where it is not checked. It also
 *                 seeds the choice of instances ({@link CanaryTarget#selects})
 * @param target   which clients run the candidate
 * @param document the candidate, a whole platform document
 */
public record Canary(long base, CanaryTarget target, String document) {
    /** What a canary's location is called beside its configuration's. */
    public static final String SUFFIX = ".canary";
    private static final ObjectMapper JSON = new ObjectMapper().setSerializationInclusion(JsonInclude.Include.NON_EMPTY);
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    public Canary {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(document, "document");
        if (base < 0) {
            throw new IllegalArgumentException("a canary's base revision must be >= 0, was " + base);
        }
        if (document.isBlank()) {
            throw new IllegalArgumentException("a canary's document is empty");
        }
    }

    /** Whether {@code client} runs the candidate while the configuration is at {@code configRevision}. */
    public boolean appliesTo(ClientIdentity client, long configRevision) {
        return (base == 0 || base == configRevision) && target.selects(client, base);
    }

    private record Stored(Long base, List<String> instances, List<String> applications, Integer percent, String document) {
    }

    /**
     * @throws InvalidConfigurationException naming {@code origin} and what is wrong
     */
    public static Canary parse(String text, String origin) throws InvalidConfigurationException {
        Stored stored;
        try {
            stored = YAML.readValue(text, Stored.class);
        } catch (JsonProcessingException e) {
            throw new InvalidConfigurationException("canary " + origin + " is not a canary (base, instances, applications, "
                    + "percent, document): " + e.getOriginalMessage(), e);
        }
        if (stored == null || stored.document() == null) {
            throw new InvalidConfigurationException("canary " + origin + " has no document");
        }
        try {
            return new Canary(stored.base() == null ? 0 : stored.base(), new CanaryTarget(
                    stored.instances() == null ? List.of() : stored.instances(),
                    stored.applications() == null ? List.of() : stored.applications(),
                    stored.percent() == null ? 0 : stored.percent()), stored.document());
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new InvalidConfigurationException("canary " + origin + ": " + e.getMessage(), e);
        }
    }

    /** The form {@link #parse} reads (JSON, which is YAML too). */
    public String toText() {
        try {
            return JSON.writeValueAsString(new Stored(base, target.instances(), target.applications(),
                    target.percent() == 0 ? null : target.percent(), document));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("a record of plain values failed to serialise", e);
        }
    }
}
