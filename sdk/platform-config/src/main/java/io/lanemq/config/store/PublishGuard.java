package io.lanemq.config.store;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigParser;
import io.lanemq.config.TopicRoute;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The guard rails a publish passes besides validation, which judges one document: these judge the change from the
 * live document to the new one, in every environment the live document defines. A change is refused when it
 * <ul>
 *   <li>drops an environment, or a logic topic from an environment (its producers' sends would fail);</li>
 *   <li>drains every IDC that carried traffic at once (all of it moving to IDCs that carried none).</li>
 * </ul>
 * A topic whose routes all weigh 0, or an IDC drained on both sides of one topic, never gets here: validation refuses
 * a topic without weight in any environment. Both tools (the console and {@code lanemq-config}) ask before writing.
 */
public final class PublishGuard {
    private PublishGuard() {
    }

    /**
     * Why publishing {@code after} over {@code before} is refused, one reason a line; empty when it may go. A live
     * document that is absent or does not parse has nothing to protect, so nothing is refused against it.
     *
     * @throws InvalidConfigurationException {@code after} itself is invalid
     */
    public static List<String> refusals(String before, String after) throws InvalidConfigurationException {
        Map<String, PlatformConfig> next = new PlatformConfigParser().parseAll(after, "the new document");
        Map<String, PlatformConfig> live;
        try {
            live = before == null ? Map.of() : new PlatformConfigParser().parseAll(before, "the live document");
        } catch (InvalidConfigurationException e) {
            return List.of();
        }
        List<String> refusals = new ArrayList<>();
        live.forEach((environment, was) -> {
            PlatformConfig now = next.get(environment);
            if (now == null) {
                refusals.add("environment '" + environment + "' is removed: its clients would refuse the document and keep "
                        + "the last one until restarted, then fail to start");
                return;
            }
            for (String topic : was.topics().keySet()) {
                if (!now.topics().containsKey(topic)) {
                    refusals.add("logic topic '" + topic + "' is removed from environment '" + environment
                            + "': every send to it would fail");
                }
            }
            Set<String> carried = carrying(was);
            Set<String> carries = carrying(now);
            if (!carried.isEmpty() && carries.stream().noneMatch(carried::contains)) {
                refusals.add("every IDC that carried traffic in environment '" + environment + "' " + carried
                        + " is drained at once, all of it moving to " + carries + ": drain one IDC at a time");
            }
        });
        return refusals;
    }

    /** The IDCs whose clusters have weight on some route. */
    private static Set<String> carrying(PlatformConfig config) {
        Set<String> idcs = new TreeSet<>();
        for (LogicTopicConfig topic : config.topics().values()) {
            for (TopicRoute route : topic.routes()) {
                if (route.weight() > 0) {
                    idcs.add(config.cluster(route.cluster()).idc());
                }
            }
        }
        return idcs;
    }
}
