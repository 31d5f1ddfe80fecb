package io.lanemq.config;

import io.lanemq.config.RawPlatformConfig.RawEnvironment;
import io.lanemq.config.RawPlatformConfig.RawRoute;
import io.lanemq.config.RawPlatformConfig.RawTopic;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The document's environments: the top level is the default environment, and each entry of {@code environments}
 * says only how it differs (see {@link #resolve}). Isolation is the point: a message sent in one environment must
 * never be consumed in another, so two environments may share clusters but never a physical topic on one
 * ({@link #sharedTopics}); a consumer of that topic would receive both environments' messages whatever its group.
 */
final class Environments {
    /** The environment of a client whose deployment names none: the document's top level. */
    static final String DEFAULT = "default";

    private Environments() {
    }

    /**
     * The document as a client of {@code environment} sees it. Over the top level: its clusters added or replaced by
     * name; each topic's keys replaced where given (routes as a whole), its consumer groups added or replaced by name;
     * its own topics added; the delay and proxy sections replaced where given. With a {@code physicalTopicSuffix},
     * every physical topic (and shadow topic) it inherits, and the delay server's internal topic unless it sets one,
     * gets the suffix: a small environment names nothing twice and still shares no topic.
     */
    static RawPlatformConfig resolve(RawPlatformConfig base, String environment) {
        if (DEFAULT.equals(environment)) {
            return base;
        }
        RawEnvironment env = base.environments.get(environment);
        if (env == null) {
            env = new RawEnvironment(); // "staging:" and nothing more: the top level as it is (and so a shared topic)
        }
        String suffix = env.physicalTopicSuffix == null ? "" : env.physicalTopicSuffix;
        RawPlatformConfig resolved = new RawPlatformConfig();
        resolved.binding = base.binding;
        resolved.consumerGroupSuffix = env.consumerGroupSuffix != null ? env.consumerGroupSuffix : suffix;
        resolved.clusters = new LinkedHashMap<>(base.clusters);
        if (env.clusters != null) {
            resolved.clusters.putAll(env.clusters);
        }
        resolved.producer = base.producer;
        resolved.consumer = base.consumer;
        resolved.stressTest = base.stressTest;
        resolved.proxy = env.proxy != null ? env.proxy : base.proxy;
        resolved.delay = delay(base.delay, env.delay, suffix);
        resolved.topics = new LinkedHashMap<>();
        Map<String, RawTopic> own = env.topics == null ? Map.of() : env.topics;
        base.topics.forEach((name, topic) -> resolved.topics.put(name, overlay(topic == null ? new RawTopic() : topic,
                own.get(name), suffix)));
        own.forEach((name, topic) -> resolved.topics.putIfAbsent(name, topic == null ? new RawTopic() : topic));
        return resolved;
    }

    /**
     * Where two environments would meet: for each environment, the other environments that use one of its physical
     * topics (or the delay server's internal topic) on the same cluster, with the topic.
     */
    static List<ConfigProblem> sharedTopics(Map<String, PlatformConfig> byEnvironment) {
        Map<String, String> owners = new LinkedHashMap<>(); // "cluster/topic" -> first environment using it
        Map<String, String> groupOwners = new LinkedHashMap<>(); // "cluster/group" on the brokers -> first environment
        List<ConfigProblem> problems = new ArrayList<>();
        byEnvironment.forEach((environment, config) -> {
            for (String group : groupsOf(config)) {
                String owner = groupOwners.putIfAbsent(group, environment);
                if (owner != null && !owner.equals(environment)) {
                    problems.add(new ConfigProblem(pointer(environment), "environments '" + owner + "' and '"
                            + environment + "' both consume as group " + group.substring(group.indexOf('/') + 1)
                            + " on cluster " + group.substring(0, group.indexOf('/')) + ": RocketMQ would split that "
                            + "group's queues between their consumers; give one environment a consumerGroupSuffix"));
                }
            }
            for (String used : topicsOf(config)) {
                String owner = owners.putIfAbsent(used, environment);
                if (owner != null && !owner.equals(environment)) {
                    problems.add(new ConfigProblem(pointer(environment), "environments '" + owner + "' and '"
                            + environment + "' both use physical topic " + used.substring(used.indexOf('/') + 1)
                            + " on cluster " + used.substring(0, used.indexOf('/')) + ": a consumer of either would "
                            + "receive the other's messages; give one environment a physicalTopicSuffix or its own "
                            + "physicalTopic"));
                }
            }
        });
        return problems;
    }

    static String pointer(String environment) {
        return DEFAULT.equals(environment) ? "" : "/environments/" + PlatformConfigValidator.escape(environment);
    }

    private static List<String> groupsOf(PlatformConfig config) {
        List<String> used = new ArrayList<>();
        for (LogicTopicConfig topic : config.topics().values()) {
            for (TopicRoute route : topic.routes()) {
                topic.consumerGroups().keySet().forEach(group -> used.add(route.cluster() + "/" + config.physicalGroup(group)));
            }
        }
        config.clusters().keySet().forEach(cluster -> used.add(cluster + "/" + config.physicalGroup(config.delay().serverGroup())));
        return used.stream().distinct().toList();
    }

    private static List<String> topicsOf(PlatformConfig config) {
        List<String> used = new ArrayList<>();
        for (LogicTopicConfig topic : config.topics().values()) {
            for (TopicRoute route : topic.routes()) {
                used.add(route.cluster() + "/" + route.physicalTopic());
                if (topic.stressTest()) {
                    used.add(route.cluster() + "/" + config.stressTest().shadowTopicOf(route));
                }
            }
        }
        // Every cluster carries the delay servers' topic: shared, one environment's servers would deliver the other's.
        config.clusters().keySet().forEach(cluster -> used.add(cluster + "/" + config.delay().internalTopic()));
        return used.stream().distinct().toList();
    }

    private static RawTopic overlay(RawTopic base, RawTopic env, String suffix) {
        RawTopic topic = new RawTopic();
        boolean ownRoutes = env != null && env.routes != null && !env.routes.isEmpty();
        topic.routes = ownRoutes ? env.routes : withSuffix(base.routes, suffix);
        topic.consumerGroups = new LinkedHashMap<>(base.consumerGroups == null ? Map.of() : base.consumerGroups);
        if (env != null && env.consumerGroups != null) {
            topic.consumerGroups.putAll(env.consumerGroups);
        }
        topic.rateLimitPerSecond = env != null && env.rateLimitPerSecond != null ? env.rateLimitPerSecond : base.rateLimitPerSecond;
        topic.stressTest = env != null && env.stressTest != null ? env.stressTest : base.stressTest;
        topic.batch = env != null && env.batch != null ? env.batch : base.batch;
        return topic;
    }

    private static List<RawRoute> withSuffix(List<RawRoute> routes, String suffix) {
        if (routes == null || suffix.isEmpty()) {
            return routes;
        }
        List<RawRoute> renamed = new ArrayList<>(routes.size());
        for (RawRoute route : routes) {
            if (route == null) {
                renamed.add(null); // the validator names it
                continue;
            }
            RawRoute copy = new RawRoute();
            copy.cluster = route.cluster;
            copy.weight = route.weight;
            copy.physicalTopic = route.physicalTopic == null ? null : route.physicalTopic + suffix;
            copy.shadowTopic = route.shadowTopic == null ? null : route.shadowTopic + suffix;
            renamed.add(copy);
        }
        return renamed;
    }

    private static RawPlatformConfig.RawDelay delay(RawPlatformConfig.RawDelay base, RawPlatformConfig.RawDelay env,
                                                    String suffix) {
        RawPlatformConfig.RawDelay delay = new RawPlatformConfig.RawDelay();
        RawPlatformConfig.RawDelay from = base == null ? new RawPlatformConfig.RawDelay() : base;
        delay.internalTopic = Optional.ofNullable(env == null ? null : env.internalTopic)
                .orElseGet(() -> suffix.isEmpty() ? from.internalTopic
                        : (from.internalTopic == null ? DelayConfig.DEFAULTS.internalTopic() : from.internalTopic) + suffix);
        delay.serverGroup = env != null && env.serverGroup != null ? env.serverGroup : from.serverGroup;
        delay.maxDelayMs = env != null && env.maxDelayMs != null ? env.maxDelayMs : from.maxDelayMs;
        delay.cancelTimeoutMs = env != null && env.cancelTimeoutMs != null ? env.cancelTimeoutMs : from.cancelTimeoutMs;
        return delay;
    }
}
