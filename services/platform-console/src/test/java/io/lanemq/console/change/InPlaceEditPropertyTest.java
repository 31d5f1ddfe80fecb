package io.lanemq.console.change;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.github.difflib.DiffUtils;
import com.github.difflib.patch.AbstractDelta;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConsumptionMode;
import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigParser;
import io.lanemq.config.PlatformConfigWriter;
import io.lanemq.config.TopicRoute;
import io.lanemq.testkit.RepoRoot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every kind of console change, applied to every example document and fixture: re-read in every environment of the
 * document, the result is the old document but for the values the change sets, and the text diff touches only the
 * lines of those values (nothing else of the document, its comments, style or environments, moves).
 */
class InPlaceEditPropertyTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final PlatformConfigWriter WRITER = new PlatformConfigWriter();

    /** Hand-written: block style, comments, a route with no weight (1), a group with no keys, an environment's own routes. */
    static final String BLOCK_FIXTURE = """
            # A hand-written document: block style, comments everywhere, defaults left unset.
            clusters:
              a1:
                idc: east       # the first IDC
                nameServer: "127.0.0.1:9876"
              a2: { idc: east, nameServer: "127.0.0.1:9877" }
              b1:
                idc: west
                nameServer: '127.0.0.1:9878'

            topics:
              # orders come first
              orders:
                routes:
                  - cluster: a1
                    physicalTopic: orders   # no weight: 1
                  - cluster: a2
                    physicalTopic: orders
                    weight: 3
                  - cluster: b1
                    physicalTopic: orders
                    weight: 4
                consumerGroups:
                  billing:
                  shipping: { threads: 2 }
              refunds:
                routes: [{ cluster: a1, physicalTopic: refunds, weight: 10 }, { cluster: b1, physicalTopic: refunds, weight: 10 }]
            # the environments come last
            environments:
              staging:
                physicalTopicSuffix: _stg
                topics:
                  orders:
                    routes:
                      - { cluster: a1, physicalTopic: orders_own, weight: 9 }
                      - { cluster: b1, physicalTopic: orders_own, weight: 1 }
                    consumerGroups:
                      staging-only: {}
              dev: { physicalTopicSuffix: _dev }
            """;

    static final String JSON_FIXTURE = """
            {"clusters": {"a": {"idc": "idc-a", "nameServer": "127.0.0.1:9876"}, "b": {"idc": "idc-b", "nameServer": "127.0.0.1:9877"}},
             "topics": {"t": {"routes": [{"cluster": "a", "physicalTopic": "t", "weight": 5}, {"cluster": "b", "physicalTopic": "t", "weight": 5}],
                              "consumerGroups": {"g": {}}}}}
            """;

    static Stream<String> documents() throws Exception {
        Path root = RepoRoot.dir();
        String example = Files.readString(root.resolve("examples/platform.yaml"));
        return Stream.of(example, Files.readString(root.resolve("deploy/kubernetes/config/platform.yaml")), BLOCK_FIXTURE,
                JSON_FIXTURE, WRITER.toYaml(Configs.parse(example, "example")));
    }

    /**
     * A change, where its values live in the canonical form (to erase before comparing), the key it writes (or the
     * topic), what it must set as the default environment reads it, and (when not null) what it must set as each
     * environment reads it, given that environment's document before.
     */
    private record Case(String name, Change change, List<String> erased, String key, String topic,
                        Consumer<PlatformConfig> expect, InEach expectInEach) {
        Case(String name, Change change, List<String> erased, String key, String topic, Consumer<PlatformConfig> expect) {
            this(name, change, erased, key, topic, expect, null);
        }
    }

    private interface InEach {
        void check(String environment, PlatformConfig before, PlatformConfig after);
    }

    @ParameterizedTest
    @MethodSource("documents")
    void everyChangeEditsOnlyItsOwnValuesInEveryEnvironmentAndOnlyTheirLines(String document) throws Exception {
        PlatformConfig config = Configs.parse(document, "document");
        List<Case> cases = cases(config);
        assertThat(cases).as("cases for this document").hasSizeGreaterThan(5);
        for (Case c : cases) {
            String edited;
            try {
                edited = Configs.applied(c.change(), document, "document");
            } catch (InvalidPlatformConfigException refused) {
                assertThat(c.change()).as(c.name() + " refused: " + refused.getMessage()).isInstanceOf(DrainIdc.class);
                continue;
            }
            for (String environment : environments(document)) {
                assertThat(erase(canonical(edited, environment), c.erased()))
                        .as(c.name() + ": environment " + environment + " is the same but for the changed values")
                        .isEqualTo(erase(canonical(document, environment), c.erased()));
            }
            c.expect().accept(Configs.parse(edited, "edited"));
            if (c.expectInEach() != null) {
                for (String environment : environments(document)) {
                    c.expectInEach().check(environment, new PlatformConfigParser(environment).parse(document, environment),
                            new PlatformConfigParser(environment).parse(edited, environment));
                }
            }
            touchesOnlyItsLines(c, document, edited);
        }
        undoAndRollbackGiveTheTextBackExactly(document, config);
    }

    private static void undoAndRollbackGiveTheTextBackExactly(String document, PlatformConfig config) throws Exception {
        for (String idc : new TreeSet<>(config.clusters().values().stream().map(ClusterConfig::idc).toList())) {
            String drained;
            try {
                drained = Configs.applied(new DrainIdc(idc), document, "document");
            } catch (InvalidPlatformConfigException refused) {
                continue;
            }
            assertThat(Configs.applied(new RestoreWeights("drain " + idc, document), drained, "drained"))
                    .as("undo of drain " + idc + " gives the text back").isEqualTo(document);
            assertThat(Configs.applied(new Rollback(1, document), drained, "drained"))
                    .as("a rollback publishes the revision's text").isEqualTo(document);
        }
    }

    private static List<Case> cases(PlatformConfig config) {
        List<Case> cases = new ArrayList<>();
        for (LogicTopicConfig topic : config.topics().values()) {
            String t = topic.name();
            Map<String, Integer> weights = new LinkedHashMap<>();
            topic.routes().forEach(r -> weights.put(r.cluster(), (r.weight() + 7) % 100));
            cases.add(new Case("weights of " + t, new SetWeights(t, weights), List.of("/topics/" + t + "/routes/*/weight"),
                    "weight", null, c -> assertThat(weightsOf(c, t)).isEqualTo(weights)));
            int limit = topic.rateLimitPerSecond() + 100;
            cases.add(new Case("rate limit of " + t, new SetRateLimit(t, limit), List.of("/topics/" + t + "/rateLimitPerSecond"),
                    "rateLimitPerSecond", null,
                    c -> assertThat(c.topic(t).orElseThrow().rateLimitPerSecond()).isEqualTo(limit)));
            topic.consumerGroups().forEach((group, settings) -> {
                ConsumptionMode flipped = settings.mode() == ConsumptionMode.DIRECT && config.proxy().configured()
                        ? ConsumptionMode.PROXY : ConsumptionMode.DIRECT;
                if (flipped != settings.mode()) {
                    cases.add(new Case("mode of " + group, new SetMode(t, group, flipped),
                            List.of("/topics/" + t + "/consumerGroups/" + group + "/mode"), "mode", null,
                            c -> assertThat(c.topic(t).orElseThrow().consumerGroups().get(group).mode()).isEqualTo(flipped)));
                }
            });
            List<TopicRoute> routes = new ArrayList<>(topic.routes());
            TopicRoute first = routes.get(0);
            routes.set(0, new TopicRoute(first.cluster(), first.physicalTopic(), first.weight() + 1, first.shadowTopic()));
            Map<String, ConsumptionMode> groups = new LinkedHashMap<>();
            topic.consumerGroups().forEach((g, s) -> groups.put(g, s.mode()));
            if (groups.size() > 1) {
                groups.remove(groups.keySet().iterator().next());
            }
            groups.put("added-group", ConsumptionMode.DIRECT);
            PutTopic edit = new PutTopic(false, t, topic.stressTest(), topic.rateLimitPerSecond() + 1, routes, groups);
            cases.add(new Case("topic form on " + t, edit, List.of("/topics/" + t), null, t, c -> expectTopic(c, edit)));
        }
        List<TopicRoute> everywhere = config.clusters().keySet().stream().map(c -> new TopicRoute(c, "created_topic", 10)).toList();
        PutTopic create = new PutTopic(true, "created-topic", false, 0, everywhere, Map.of("created-group", ConsumptionMode.DIRECT));
        cases.add(new Case("create a topic", create, List.of("/topics/created-topic"), null, "created-topic", c -> expectTopic(c, create)));
        for (String idc : new TreeSet<>(config.clusters().values().stream().map(ClusterConfig::idc).toList())) {
            cases.add(new Case("drain " + idc, new DrainIdc(idc), List.of("/topics/*/routes/*/weight"), "weight", null, c -> { },
                    (environment, before, after) -> {
                        List<String> drained = before.clusters().values().stream().filter(cluster -> cluster.idc().equals(idc)).map(ClusterConfig::name).toList();
                        after.topics().values().forEach(topic -> {
                            assertThat(topic.routes().stream().filter(r -> drained.contains(r.cluster())).mapToInt(TopicRoute::weight).sum())
                                    .as("drained weight of " + topic.name() + " in " + environment).isZero();
                            assertThat(topic.totalWeight()).as("total weight of " + topic.name() + " in " + environment)
                                    .isEqualTo(before.topic(topic.name()).orElseThrow().totalWeight());
                        });
                    }));
        }
        return cases;
    }

    private static void expectTopic(PlatformConfig config, PutTopic form) {
        LogicTopicConfig topic = config.topic(form.name()).orElseThrow();
        assertThat(topic.routes().stream().map(r -> r.cluster() + " " + r.physicalTopic() + " " + r.weight()).collect(Collectors.toSet()))
                .isEqualTo(form.routes().stream().map(r -> r.cluster() + " " + r.physicalTopic() + " " + r.weight()).collect(Collectors.toSet()));
        assertThat(topic.consumerGroups().entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().mode())))
                .isEqualTo(form.groups());
        assertThat(topic.rateLimitPerSecond()).isEqualTo(form.rateLimitPerSecond());
    }

    private static Map<String, Integer> weightsOf(PlatformConfig config, String topic) {
        return config.topic(topic).orElseThrow().routes().stream().collect(Collectors.toMap(TopicRoute::cluster, TopicRoute::weight));
    }

    /**
     * The text diff: a value change rewrites the lines holding the values (or adds a line for a key that was unset),
     * nothing else; a topic form changes lines inside that topic only (or adds the new topic's lines in one place).
     */
    private static void touchesOnlyItsLines(Case c, String before, String after) {
        List<String> old = before.lines().toList();
        List<AbstractDelta<String>> deltas = DiffUtils.diff(old, after.lines().toList()).getDeltas();
        assertThat(deltas).as(c.name() + " changes the text").isNotEmpty();
        for (AbstractDelta<String> delta : deltas) {
            if (c.key() != null) {
                assertThat(delta.getTarget().getLines()).as(c.name() + ": each written line holds the changed key")
                        .allMatch(line -> line.contains(c.key()));
                if (!delta.getSource().getLines().isEmpty()) {
                    assertThat(delta.getTarget().getLines().stream().map(line -> without(line, c.key())).toList())
                            .as(c.name() + ": each rewritten line is the same but for the changed key and its value")
                            .isEqualTo(delta.getSource().getLines().stream().map(line -> without(line, c.key())).toList());
                }
            } else {
                int[] lines = linesOf(before, c.topic());
                int from = delta.getSource().getPosition();
                int to = from + delta.getSource().size();
                assertThat(from).as(c.name() + ": a changed line is inside topic " + c.topic() + " " + delta)
                        .isBetween(lines[0], lines[1]);
                assertThat(to).as(c.name() + ": a changed line is inside topic " + c.topic() + " " + delta).isBetween(lines[0], lines[1]);
            }
        }
    }

    /** The line without {@code key: value} (quoted or not, with its comma) and an empty flow mapping left by it. */
    private static String without(String line, String key) {
        return line.replaceAll("\\s*,?\\s*\"?" + key + "\"?:\\s*[^,}\\]#\\s]+", "").replaceAll("\\{\\s*}", "").stripTrailing();
    }

    /** The 0-based line range of a topic's entry in the text ({@code [end of topics, end]} for a topic not in it). */
    private static int[] linesOf(String text, String topic) {
        org.yaml.snakeyaml.nodes.MappingNode root = (org.yaml.snakeyaml.nodes.MappingNode) new org.yaml.snakeyaml.Yaml()
                .compose(new java.io.StringReader(text));
        for (org.yaml.snakeyaml.nodes.NodeTuple top : root.getValue()) {
            if (!((org.yaml.snakeyaml.nodes.ScalarNode) top.getKeyNode()).getValue().equals("topics")) {
                continue;
            }
            List<org.yaml.snakeyaml.nodes.NodeTuple> topics = ((org.yaml.snakeyaml.nodes.MappingNode) top.getValueNode()).getValue();
            for (int i = 0; i < topics.size(); i++) {
                if (((org.yaml.snakeyaml.nodes.ScalarNode) topics.get(i).getKeyNode()).getValue().equals(topic)) {
                    int start = topics.get(i).getKeyNode().getStartMark().getLine();
                    int end = i + 1 < topics.size() ? topics.get(i + 1).getKeyNode().getStartMark().getLine()
                            : top.getValueNode().getEndMark().getLine() + 1;
                    return new int[] {start, end};
                }
            }
            int end = top.getValueNode().getEndMark().getLine() + 1;
            return new int[] {top.getKeyNode().getStartMark().getLine(), end};
        }
        throw new AssertionError("no topics in the document");
    }

    private static List<String> environments(String document) throws Exception {
        List<String> names = new ArrayList<>(List.of("default"));
        YAML.readTree(document).path("environments").fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** What a client of the environment reads, written out in full (every default spelled). */
    private static JsonNode canonical(String document, String environment) throws Exception {
        return YAML.readTree(WRITER.toYaml(new PlatformConfigParser(environment).parse(document, environment)));
    }

    /** The tree without the values at the patterns ({@code *}: every key or item there). */
    private static JsonNode erase(JsonNode tree, List<String> patterns) {
        JsonNode copy = tree.deepCopy();
        for (String pattern : patterns) {
            eraseAt(copy, List.of(pattern.substring(1).split("/")));
        }
        return copy;
    }

    private static void eraseAt(JsonNode node, List<String> steps) {
        String step = steps.get(0);
        if (steps.size() == 1) {
            if (node instanceof ObjectNode object) {
                if (step.equals("*")) {
                    object.removeAll();
                } else {
                    object.remove(step);
                }
            }
            return;
        }
        List<String> rest = steps.subList(1, steps.size());
        if (step.equals("*")) {
            node.forEach(child -> eraseAt(child, rest));
        } else if (node.has(step)) {
            eraseAt(node.get(step), rest);
        }
    }
}
