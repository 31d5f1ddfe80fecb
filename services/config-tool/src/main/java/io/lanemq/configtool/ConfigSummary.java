package io.lanemq.configtool;

import io.lanemq.config.ClusterConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.TopicRoute;
import java.util.Locale;
import java.util.StringJoiner;
import java.util.TreeMap;

/** What an operator checks before publishing: clusters, logic topics, and where each topic's sends (and stress-test sends) go. */
final class ConfigSummary {
    private ConfigSummary() {
    }

    static String of(PlatformConfig config) {
        StringBuilder out = new StringBuilder();
        out.append("clusters (").append(config.clusters().size()).append("):\n");
        for (ClusterConfig cluster : new TreeMap<>(config.clusters()).values()) {
            out.append("  ").append(cluster.name()).append(": idc ").append(cluster.idc())
                    .append(", name server ").append(cluster.nameServer()).append('\n');
        }
        out.append("logic topics (").append(config.topics().size()).append("):\n");
        for (LogicTopicConfig topic : new TreeMap<>(config.topics()).values()) {
            StringJoiner routes = new StringJoiner(", ");
            for (TopicRoute route : topic.routes()) {
                routes.add(String.format(Locale.ROOT, "%s/%s weight %d (%.0f%%)", route.cluster(), route.physicalTopic(),
                        route.weight(), 100.0 * route.weight() / topic.totalWeight()));
            }
            out.append("  ").append(topic.name()).append(": ").append(routes);
            if (!topic.consumerGroups().isEmpty()) {
                out.append("; consumer groups: ").append(String.join(", ", new TreeMap<>(topic.consumerGroups()).keySet()));
            }
            if (topic.stressTest()) {
                // The shadow topics must exist like any physical topic: the operator creates them.
                StringJoiner shadows = new StringJoiner(", ");
                topic.routes().forEach(route -> shadows.add(route.cluster() + "/" + config.shadowTopic(route)));
                out.append("; stress-test traffic to ").append(shadows);
            }
            out.append('\n');
        }
        return out.toString();
    }
}
