package io.lanemq.console.change;

import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigParser;
import io.lanemq.config.PlatformConfigWriter;
import io.lanemq.config.TopicRoute;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * Copying a snapshot into a builder and validating a draft the way the SDK will read it. Stateless.
 *
 * <p>A draft is validated twice on purpose: {@code build()} runs the platform's validator on the model, then the
 * written document is parsed back with {@link PlatformConfigParser}, the exact path an SDK client takes when the
 * change reaches it, so the console can never publish a document that clients would reject.
 */
public final class Configs {
    private static final PlatformConfigParser PARSER = new PlatformConfigParser();
    private static final PlatformConfigWriter WRITER = new PlatformConfigWriter();

    private Configs() {
    }

    /** A builder holding everything {@code config} holds, to change a part of it. */
    public static PlatformConfig.Builder toBuilder(PlatformConfig config) {
        PlatformConfig.Builder builder = PlatformConfig.builder()
                .producer(config.producer()).consumerDefaults(config.consumerDefaults()).delay(config.delay())
                .proxy(config.proxy()).stressTest(config.stressTest());
        config.binding().ifPresent(builder::binding);
        config.clusters().values().forEach(builder::cluster);
        config.topics().values().forEach(builder::topic);
        return builder;
    }

    /** The validated document of {@code draft}; the exception lists every problem by key. */
    public static String validatedYaml(PlatformConfig.Builder draft, String source) throws InvalidPlatformConfigException {
        String yaml = WRITER.toYaml(draft.build(source));
        PARSER.parse(yaml, source);
        return yaml;
    }

    public static PlatformConfig parse(String yaml, String source) throws InvalidPlatformConfigException {
        return PARSER.parse(yaml, source);
    }

    /** {@code topic} with each route's weight replaced by {@code weightOfRoute.applyAsInt(index)}. */
    static LogicTopicConfig reweighted(LogicTopicConfig topic, IntUnaryOperator weightOfRoute) {
        List<TopicRoute> routes = new ArrayList<>();
        for (int i = 0; i < topic.routes().size(); i++) {
            TopicRoute route = topic.routes().get(i);
            routes.add(new TopicRoute(route.cluster(), route.physicalTopic(), weightOfRoute.applyAsInt(i), route.shadowTopic()));
        }
        return new LogicTopicConfig(topic.name(), routes, topic.consumerGroups(), topic.rateLimitPerSecond(),
                topic.stressTest(), topic.batch());
    }

    /** A JSON-pointer segment, escaped as the validator escapes keys. */
    static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}
