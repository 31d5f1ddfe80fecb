package io.lanemq.console.web;

import io.lanemq.config.ConfigProblem;
import io.lanemq.config.ConsumptionMode;
import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.TopicRoute;
import io.lanemq.console.change.PutTopic;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The topic form as the browser posts it (Spring binds it; hence mutable), turned into a {@link PutTopic}; and the way
 * back: a problem the validator names by key ({@code topics.t.routes[1].weight}) becomes an error beside its field.
 * One row per cluster; a row without a physical topic is no route.
 */
public class TopicForm {
    private boolean creating;
    private String name = "";
    private boolean stressTest;
    private String rateLimitPerSecond = "0";
    private List<RouteRow> routes = new ArrayList<>();
    /** One group per line: {@code name MODE} (mode DIRECT when left out). */
    private String groups = "";
    private long baseRevision;

    public static class RouteRow {
        private String cluster;
        private String physicalTopic = "";
        private String weight = "0";
        private String shadowTopic = "";

        public String getCluster() {
            return cluster;
        }

        public void setCluster(String cluster) {
            this.cluster = cluster;
        }

        public String getPhysicalTopic() {
            return physicalTopic;
        }

        public void setPhysicalTopic(String physicalTopic) {
            this.physicalTopic = physicalTopic;
        }

        public String getWeight() {
            return weight;
        }

        public void setWeight(String weight) {
            this.weight = weight;
        }

        public String getShadowTopic() {
            return shadowTopic;
        }

        public void setShadowTopic(String shadowTopic) {
            this.shadowTopic = shadowTopic;
        }
    }

    /** An empty form for a new topic: one row per cluster of {@code config}. */
    public static TopicForm creating(PlatformConfig config, long revision) {
        TopicForm form = new TopicForm();
        form.creating = true;
        form.baseRevision = revision;
        config.clusters().keySet().stream().sorted().forEach(cluster -> {
            RouteRow row = new RouteRow();
            row.cluster = cluster;
            form.routes.add(row);
        });
        return form;
    }

    /** The form of an existing topic. */
    public static TopicForm editing(PlatformConfig config, LogicTopicConfig topic, long revision) {
        TopicForm form = creating(config, revision);
        form.creating = false;
        form.name = topic.name();
        form.stressTest = topic.stressTest();
        form.rateLimitPerSecond = Integer.toString(topic.rateLimitPerSecond());
        for (RouteRow row : form.routes) {
            topic.route(row.cluster).ifPresent(route -> {
                row.physicalTopic = route.physicalTopic();
                row.weight = Integer.toString(route.weight());
                row.shadowTopic = route.shadowTopic().orElse("");
            });
        }
        StringBuilder lines = new StringBuilder();
        topic.consumerGroups().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(g -> lines.append(g.getKey()).append(' ').append(g.getValue().mode()).append('\n'));
        form.groups = lines.toString();
        return form;
    }

    /**
     * The change this form asks for.
     *
     * @throws InvalidPlatformConfigException what cannot even be read (a weight that is not a number), by key
     */
    public PutTopic toChange() throws InvalidPlatformConfigException {
        List<ConfigProblem> problems = new ArrayList<>();
        String at = "/topics/" + name.strip().replace("~", "~0").replace("/", "~1");
        int rate = number(rateLimitPerSecond, at + "/rateLimitPerSecond", problems);
        List<TopicRoute> parsed = new ArrayList<>();
        for (RouteRow row : routes) {
            if (blank(row.physicalTopic)) {
                continue;
            }
            int weight = number(row.weight, at + "/routes/" + parsed.size() + "/weight", problems);
            parsed.add(new TopicRoute(row.cluster, row.physicalTopic.strip(), weight,
                    blank(row.shadowTopic) ? Optional.empty() : Optional.of(row.shadowTopic.strip())));
        }
        Map<String, ConsumptionMode> byGroup = new LinkedHashMap<>();
        for (String line : groups.split("\\R")) {
            String[] parts = line.strip().split("\\s+");
            if (parts[0].isEmpty()) {
                continue;
            }
            try {
                byGroup.put(parts[0], parts.length > 1 ? ConsumptionMode.valueOf(parts[1].toUpperCase(Locale.ROOT)) : ConsumptionMode.DIRECT);
            } catch (IllegalArgumentException e) {
                problems.add(new ConfigProblem(at + "/consumerGroups/" + parts[0] + "/mode", "must be DIRECT or PROXY, was '" + parts[1] + "'"));
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidPlatformConfigException("the topic form", problems);
        }
        return new PutTopic(creating, name.strip(), stressTest, rate, parsed, byGroup);
    }

    /**
     * The form field a problem belongs beside: {@code routes[2].weight}, {@code name}, {@code groups}...; null when it
     * is about no field of this form (it is then shown above the form).
     */
    public String fieldOf(ConfigProblem problem) {
        String prefix = "/topics/" + name.strip().replace("~", "~0").replace("/", "~1");
        String pointer = problem.pointer();
        if (!pointer.startsWith(prefix)) {
            return null;
        }
        String[] rest = pointer.substring(prefix.length()).split("/");
        if (rest.length < 2) {
            return "name";
        }
        return switch (rest[1]) {
            case "routes" -> rest.length >= 4 ? "routes[" + rowOfRoute(Integer.parseInt(rest[2])) + "]." + rest[3] : "routes";
            case "consumerGroups" -> "groups";
            case "rateLimitPerSecond" -> "rateLimitPerSecond";
            default -> null;
        };
    }

    /** Rows without a physical topic are no route, so route i is the i-th filled row. */
    private int rowOfRoute(int route) {
        int seen = -1;
        for (int row = 0; row < routes.size(); row++) {
            if (!blank(routes.get(row).physicalTopic) && ++seen == route) {
                return row;
            }
        }
        return route;
    }

    private static int number(String text, String pointer, List<ConfigProblem> problems) {
        try {
            return Integer.parseInt(text == null ? "" : text.strip());
        } catch (NumberFormatException e) {
            problems.add(new ConfigProblem(pointer, "must be a whole number, was '" + text + "'"));
            return 0;
        }
    }

    private static boolean blank(String text) {
        return text == null || text.isBlank();
    }

    public boolean isCreating() {
        return creating;
    }

    public void setCreating(boolean creating) {
        this.creating = creating;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name == null ? "" : name;
    }

    public boolean isStressTest() {
        return stressTest;
    }

    public void setStressTest(boolean stressTest) {
        this.stressTest = stressTest;
    }

    public String getRateLimitPerSecond() {
        return rateLimitPerSecond;
    }

    public void setRateLimitPerSecond(String rateLimitPerSecond) {
        this.rateLimitPerSecond = rateLimitPerSecond;
    }

    public List<RouteRow> getRoutes() {
        return routes;
    }

    public void setRoutes(List<RouteRow> routes) {
        this.routes = routes;
    }

    public String getGroups() {
        return groups;
    }

    public void setGroups(String groups) {
        this.groups = groups == null ? "" : groups;
    }

    public long getBaseRevision() {
        return baseRevision;
    }

    public void setBaseRevision(long baseRevision) {
        this.baseRevision = baseRevision;
    }
}
