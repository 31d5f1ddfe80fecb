package io.lanemq.console.change;

import io.lanemq.config.ConfigProblem;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.ConsumptionMode;
import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.TopicRoute;
import io.lanemq.config.store.DocumentText;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Creates a logic topic or replaces one's routes, groups, rate limit and stress-test flag (the topic form). A group
 * that exists keeps its tuning (threads, batch size...) and takes the new mode; a new group gets the platform's
 * consumer defaults. The topic's own batch gathering, which the form does not show, is kept. Only what the form
 * changed is written.
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
    public DocumentText applyTo(DocumentText document, PlatformConfig current) throws InvalidPlatformConfigException {
        Optional<LogicTopicConfig> existing = current.topic(name);
        if (creating && existing.isPresent()) {
            throw new InvalidPlatformConfigException(describe(), List.of(new ConfigProblem("/topics/" + Configs.escape(name),
                    "a logic topic of this name exists already")));
        }
        ConsumptionMode defaultMode = current.consumerDefaults().mode();
        if (creating) {
            Map<String, Object> topic = new LinkedHashMap<>();
            if (stressTest) {
                topic.put("stressTest", true);
            }
            if (rateLimitPerSecond != 0) {
                topic.put("rateLimitPerSecond", rateLimitPerSecond);
            }
            topic.put("routes", routes.stream().map(PutTopic::item).toList());
            Map<String, Object> groupKeys = new LinkedHashMap<>();
            groups.forEach((group, mode) -> groupKeys.put(group, groupOf(mode, defaultMode)));
            if (!groupKeys.isEmpty()) {
                topic.put("consumerGroups", groupKeys);
            }
            return document.with(Configs.topic(name), topic);
        }
        LogicTopicConfig old = existing(current, name);
        DocumentText draft = document;
        if (old.stressTest() != stressTest) {
            draft = draft.with(Configs.topic(name, "stressTest"), stressTest);
        }
        if (old.rateLimitPerSecond() != rateLimitPerSecond) {
            draft = draft.with(Configs.topic(name, "rateLimitPerSecond"), rateLimitPerSecond);
        }
        draft = withRoutes(draft, old);
        for (String group : old.consumerGroups().keySet()) {
            if (!groups.containsKey(group)) {
                draft = draft.without(Configs.topic(name, "consumerGroups", group));
            }
        }
        for (Map.Entry<String, ConsumptionMode> group : groups.entrySet()) {
            ConsumerConfig settings = old.consumerGroups().get(group.getKey());
            if (settings == null) {
                draft = draft.with(Configs.topic(name, "consumerGroups", group.getKey()), groupOf(group.getValue(), defaultMode));
            } else if (settings.mode() != group.getValue()) {
                draft = draft.with(Configs.topic(name, "consumerGroups", group.getKey(), "mode"), group.getValue());
            }
        }
        return draft;
    }

    /**
     * The routes edited in place: a cluster no longer routed loses its item, a kept one has only its changed keys
     * rewritten, a new cluster's route is added after the others.
     */
    private DocumentText withRoutes(DocumentText document, LogicTopicConfig old) {
        Map<String, TopicRoute> wanted = new LinkedHashMap<>();
        routes.forEach(route -> wanted.put(route.cluster(), route));
        DocumentText draft = document;
        List<TopicRoute> kept = new ArrayList<>(old.routes());
        for (int i = old.routes().size() - 1; i >= 0; i--) {
            if (!wanted.containsKey(old.routes().get(i).cluster())) {
                draft = draft.without(Configs.topic(name, "routes", i));
                kept.remove(i);
            }
        }
        for (int i = 0; i < kept.size(); i++) {
            TopicRoute was = kept.get(i);
            TopicRoute now = wanted.remove(was.cluster());
            if (!now.physicalTopic().equals(was.physicalTopic())) {
                draft = draft.with(Configs.route(name, i, "physicalTopic"), now.physicalTopic());
            }
            if (now.weight() != was.weight()) {
                draft = draft.with(Configs.route(name, i, "weight"), now.weight());
            }
            if (!now.shadowTopic().equals(was.shadowTopic())) {
                draft = now.shadowTopic().isPresent() ? draft.with(Configs.route(name, i, "shadowTopic"), now.shadowTopic().get())
                        : draft.without(Configs.route(name, i, "shadowTopic"));
            }
        }
        for (TopicRoute added : wanted.values()) {
            draft = draft.has(Configs.topic(name, "routes")) ? draft.appended(Configs.topic(name, "routes"), item(added))
                    : draft.with(Configs.topic(name, "routes"), List.of(item(added)));
        }
        return draft;
    }

    private static Map<String, Object> item(TopicRoute route) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("cluster", route.cluster());
        item.put("physicalTopic", route.physicalTopic());
        item.put("weight", route.weight());
        route.shadowTopic().ifPresent(shadow -> item.put("shadowTopic", shadow));
        return item;
    }

    /** A new group's keys: its mode, only when it is not the platform's default (a default stays a default). */
    private static Map<String, Object> groupOf(ConsumptionMode mode, ConsumptionMode defaultMode) {
        return mode == defaultMode ? Map.of() : Map.of("mode", mode);
    }

    static LogicTopicConfig existing(PlatformConfig current, String topic) throws InvalidPlatformConfigException {
        return current.topic(topic).orElseThrow(() -> new InvalidPlatformConfigException(topic, List.of(
                new ConfigProblem("/topics/" + Configs.escape(topic), "no such logic topic"))));
    }
}
