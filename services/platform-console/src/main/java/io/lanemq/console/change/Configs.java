package io.lanemq.console.change;

import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigParser;
import io.lanemq.config.store.DocumentText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
        return reweighted(document, new RouteSet(PlatformConfigParser.DEFAULT_ENVIRONMENT, topic(topic.name()), null, topic), weightOfRoute);
    }

    /** {@code document} with each route of {@code routes} at {@code weightOfRoute.applyAsInt(index)}; equal weights stay untouched. */
    static DocumentText reweighted(DocumentText document, RouteSet routes, IntUnaryOperator weightOfRoute) {
        DocumentText edited = document;
        for (int i = 0; i < routes.topic().routes().size(); i++) {
            int weight = weightOfRoute.applyAsInt(i);
            if (weight != routes.topic().routes().get(i).weight()) {
                edited = edited.with(routes.weight(i), weight);
            }
        }
        return edited;
    }

    /**
     * Every place the document writes a topic's routes: each top-level topic (as the default environment reads it)
     * and each topic an environment gives routes of its own under {@code environments.X.topics} (as that environment
     * reads it). A topic inheriting the top level's routes is not repeated: editing the top level moves it.
     */
    public static List<RouteSet> routeSets(String yaml, String source) throws InvalidPlatformConfigException {
        DocumentText text = DocumentText.of(yaml);
        List<RouteSet> sets = new ArrayList<>();
        for (Map.Entry<String, PlatformConfig> environment : PARSER.parseAll(yaml, source).entrySet()) {
            boolean top = environment.getKey().equals(PlatformConfigParser.DEFAULT_ENVIRONMENT);
            for (LogicTopicConfig topic : environment.getValue().topics().values()) {
                List<Object> at = top ? topic(topic.name()) : List.of("environments", environment.getKey(), "topics", topic.name());
                RouteSet set = new RouteSet(environment.getKey(), at, environment.getValue(), topic);
                if (top || text.has(set.route(0))) {
                    sets.add(set);
                }
            }
        }
        return sets;
    }

    /**
     * One topic's routes where the document writes them.
     *
     * @param environment the environment reading them ({@code default} for the top level)
     * @param topicPath   the topic's entry in the document
     * @param config      the document as that environment reads it (its clusters and their IDCs)
     * @param topic       the topic as that environment reads it (its routes in the document's order)
     */
    public record RouteSet(String environment, List<Object> topicPath, PlatformConfig config, LogicTopicConfig topic) {
        public RouteSet {
            topicPath = List.copyOf(topicPath);
        }

        /** The topic as the Operations page names it: {@code orders}, or {@code orders (staging)} for an environment's own routes. */
        public String label() {
            return environment.equals(PlatformConfigParser.DEFAULT_ENVIRONMENT) ? topic.name() : topic.name() + " (" + environment + ")";
        }

        /** The clusters of {@code idc} as this environment reads them. */
        public java.util.Set<String> clustersIn(String idc) {
            return config.clusters().values().stream().filter(c -> c.idc().equals(idc)).map(io.lanemq.config.ClusterConfig::name)
                    .collect(java.util.stream.Collectors.toSet());
        }

        /** The weight {@code clusters} take now: what a drain of them would move. */
        public int weightOn(java.util.Set<String> clusters) {
            return topic.routes().stream().filter(r -> clusters.contains(r.cluster())).mapToInt(io.lanemq.config.TopicRoute::weight).sum();
        }

        /** The JSON pointer of the routes, as the validator names keys. */
        String pointer() {
            return "/" + String.join("/", topicPath.stream().map(step -> escape(step.toString())).toList()) + "/routes";
        }

        List<Object> route(int index) {
            List<Object> path = new ArrayList<>(topicPath);
            path.add("routes");
            path.add(index);
            return path;
        }

        List<Object> weight(int index) {
            List<Object> path = route(index);
            path.add("weight");
            return path;
        }
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
