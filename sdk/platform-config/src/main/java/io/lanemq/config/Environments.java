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
 * never be consumed in another, so two environments may share clusters but neither a physical topic on one (a
 * consumer of it would receive both environments' messages, whatever its group) nor a consumer group on the brokers
 * (RocketMQ would split its queues between their consumers): see {@link #meetings}.
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
     * Where two environments would meet on a cluster: a physical topic (the delay servers' included) or a consumer
     * group on the brokers (the delay servers' included) that both use.
     */
    static List<ConfigProblem> meetings(Map<String, PlatformConfig> byEnvironment) {
        List<ConfigProblem> problems = new ArrayList<>();
        Meetings topics = new Meetings((first, second, cluster, topic) -> "environments '" + first + "' and '" + second
                + "' both use physical topic " + topic + " on cluster " + cluster + ": a consumer of either would receive "
                + "the other's messages; give one environment a physicalTopicSuffix or its own physicalTopic");
        Meetings groups = new Meetings((first, second, cluster, group) -> "environments '" + first + "' and '" + second
                + "' both consume as group " + group + " on cluster " + cluster + ": RocketMQ would split that group's "
                + "queues between their consumers; give one environment a consumerGroupSuffix");
        byEnvironment.forEach((environment, config) -> {
            groups.check(environment, groupsOf(config), problems);
            topics.check(environment, topicsOf(config), problems);
        });
        return problems;
    }

    /** Names on a cluster ("cluster/name") and the first environment that used each, to report the second. */
    private static final class Meetings {
        interface Message {
            String of(String first, String second, String cluster, String name);
        }

        private final Map<String, String> owners = new LinkedHashMap<>();
        private final Message message;

        Meetings(Message message) {
            this.message = message;
        }

        void check(String environment, List<String> used, List<ConfigProblem> problems) {
            for (String name : used) {
                String owner = owners.putIfAbsent(name, environment);
                if (owner != null && !owner.equals(environment)) {
                    int slash = name.indexOf('/');
                    problems.add(new ConfigProblem(pointer(environment),
                            message.of(owner, environment, name.substring(0, slash), name.substring(slash + 1))));
                }
            }
        }
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
