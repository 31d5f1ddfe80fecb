package io.lanemq.console.change;

import io.lanemq.config.ConfigProblem;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.ConsumptionMode;
import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.TopicRoute;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Creates a logic topic or replaces one's routes, groups, rate limit and stress-test flag (the topic form). A group
 * that exists keeps its tuning (threads, batch size...) and takes the new mode; a new group gets the platform's
 * consumer defaults. The topic's own batch gathering, which the form does not show, is kept.
 */
public record PutTopic(boolean creating, String name, boolean stressTest, int rateLimitPerSecond, List<TopicRoute> routes,
                       Map<String, ConsumptionMode> groups) implements Change {
    public PutTopic {
        routes = List.copyOf(routes);
        groups = Collections.unmodifiableMap(new LinkedHashMap<>(groups));
    }

    @Override
    public String describe() {
        return (creating ? "create topic " : "edit topic ") + name;
    }

    @Override
    public Scope scope() {
        return Scope.topic(name);
    }

    @Override
    public PlatformConfig.Builder applyTo(PlatformConfig current) throws InvalidPlatformConfigException {
        Optional<LogicTopicConfig> existing = current.topic(name);
        if (creating && existing.isPresent()) {
            throw new InvalidPlatformConfigException(describe(), List.of(new ConfigProblem("/topics/" + Configs.escape(name),
                    "a logic topic of this name exists already")));
        }
        LogicTopicConfig old = creating ? null : existing(current, name);
        Map<String, ConsumerConfig> settings = new LinkedHashMap<>();
        groups.forEach((group, mode) -> settings.put(group, Optional.ofNullable(old).map(t -> t.consumerGroups().get(group))
                .orElse(current.consumerDefaults()).withMode(mode)));
        LogicTopicConfig topic = new LogicTopicConfig(name, routes, settings, rateLimitPerSecond, stressTest,
                old == null ? Optional.empty() : old.batch());
        return Configs.toBuilder(current).topic(topic);
    }

    static LogicTopicConfig existing(PlatformConfig current, String topic) throws InvalidPlatformConfigException {
        return current.topic(topic).orElseThrow(() -> new InvalidPlatformConfigException(topic, List.of(
                new ConfigProblem("/topics/" + Configs.escape(topic), "no such logic topic"))));
    }
}
