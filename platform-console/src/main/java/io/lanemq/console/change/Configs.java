package io.lanemq.console.change;

import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigParser;
import io.lanemq.config.store.DocumentText;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * Reading a document the way the SDK will, and the document paths the changes edit. Stateless.
 *
 * <p>A changed document is validated by {@link PlatformConfigParser}, the exact path an SDK client takes when the
 * change reaches it, in every environment of the document, so the console can never publish a document that clients
 * of any environment would reject.
 */
public final class Configs {
    private static final PlatformConfigParser PARSER = new PlatformConfigParser();

    private Configs() {
    }

    /** {@code yaml} when every environment of it is valid; the exception lists every problem by key. */
    public static String validated(String yaml, String source) throws InvalidPlatformConfigException {
        PARSER.parse(yaml, source);
        return yaml;
    }

    /**
     * {@code yaml} with {@code change} made in place, validated in every environment.
     *
     * @throws InvalidPlatformConfigException the document or the change's result is invalid, or the change cannot apply
     */
    public static String applied(Change change, String yaml, String source) throws InvalidPlatformConfigException {
        return validated(change.applyTo(DocumentText.of(yaml), parse(yaml, source)).text(), change.describe());
    }

    public static PlatformConfig parse(String yaml, String source) throws InvalidPlatformConfigException {
        return PARSER.parse(yaml, source);
    }

    /** {@code document} with each route of {@code topic} at {@code weightOfRoute.applyAsInt(index)}; equal weights stay untouched. */
    static DocumentText reweighted(DocumentText document, LogicTopicConfig topic, IntUnaryOperator weightOfRoute) {
        DocumentText edited = document;
        for (int i = 0; i < topic.routes().size(); i++) {
            int weight = weightOfRoute.applyAsInt(i);
            if (weight != topic.routes().get(i).weight()) {
                edited = edited.with(route(topic.name(), i, "weight"), weight);
            }
        }
        return edited;
    }

    static List<Object> topic(String topic, Object... keys) {
        List<Object> path = new java.util.ArrayList<>(List.of("topics", topic));
        path.addAll(List.of(keys));
        return path;
    }

    static List<Object> route(String topic, int index, String key) {
        return topic(topic, "routes", index, key);
    }

    /** A JSON-pointer segment, escaped as the validator escapes keys. */
    static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}
