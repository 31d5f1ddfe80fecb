package io.lanemq.config;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.lanemq.config.RawPlatformConfig.RawConsumer;
import io.lanemq.config.RawPlatformConfig.RawRoute;
import io.lanemq.config.RawPlatformConfig.RawTopic;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.nio.file.Path;
import java.util.stream.Collectors;

/**
 * Reads a platform configuration document (YAML, or JSON, which YAML contains) into a validated
 * {@link PlatformConfig}. Every rejection names the key and the source line it came from.
 * Thread-safe.
 *
 * <pre>{@code
 * clusters:
 *   cluster-a: { idc: idc-a, nameServer: "10.0.0.1:9876" }
 *   cluster-b:
 *     idc: idc-b
 *     nameServer: "10.1.0.1:9876"
 *     tls: true                     # optional; clients connect over TLS
 *     credentials:                  # optional; where the ACL keys live, never the keys (a secret-looking key is refused)
 *       accessKeyEnv: LANEMQ_CLUSTER_B_ACCESS_KEY
 *       secretKeyEnv: LANEMQ_CLUSTER_B_SECRET_KEY   # or: credentials: { file: /run/secrets/cluster-b.properties }
 * proxy:                          # only for groups in PROXY mode; TLS is mandatory
 *   endpoints: ["proxy-1:7443", "proxy-2:7443"]
 *   caCertificate: /etc/lanemq/proxy-ca.pem
 * stressTest:                     # optional; where stress-test traffic goes
 *   shadowSuffix: _SHADOW         # the default: a route's shadow topic is <physicalTopic>_SHADOW, same cluster
 * topics:
 *   order-paid:
 *     stressTest: true              # takes stress-test traffic (default false: such sends are refused)
 *     routes:
 *       - { cluster: cluster-a, physicalTopic: order_paid, weight: 50 }
 *       - { cluster: cluster-b, physicalTopic: order_paid, weight: 50, shadowTopic: order_paid_stress }
 *     consumerGroups:
 *       billing: { threads: 4 }     # DIRECT groups also consume the shadow topics; PROXY groups do not yet
 * }</pre>
 */
public final class PlatformConfigParser {
    /** The environment of a client whose deployment names none: the document's top level. */
    public static final String DEFAULT_ENVIRONMENT = Environments.DEFAULT;

    /** The weight of a route that names none. */
    static final int DEFAULT_ROUTE_WEIGHT = 1;

    private final JsonFactory factory;
    private final ObjectMapper mapper;
    private final String environment;

    /** A parser for clients of the default environment: the document's top level. */
    public PlatformConfigParser() {
        this(Environments.DEFAULT);
    }

    /**
     * A parser that gives what a client of {@code environment} sees: the top level with that entry of the document's
     * {@code environments} laid over it (see the class comment). Every environment is validated each time, so a
     * document one environment cannot use is refused for all, and so is one where two environments share a
     * physical topic on a cluster.
     */
    public PlatformConfigParser(String environment) {
        if (environment == null || environment.isBlank()) {
            throw new IllegalArgumentException("environment must be a name, was '" + environment + "'");
        }
        this.environment = environment;
        this.factory = YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
        this.mapper = new ObjectMapper(factory)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .addHandler(new SecretKeys());
        // YAML writes "key:" with no value as an empty string; read it as absent so the
        // validator reports the missing keys by name instead of a coercion error.
        mapper.coercionConfigDefaults().setCoercion(CoercionInputShape.EmptyString, CoercionAction.AsNull);
    }

    /**
     * Parses and validates.
     *
     * @param text   the document
     * @param source where it came from, for error messages (a path, an etcd key)
     * @throws InvalidPlatformConfigException naming every problem with its key and line
     */
    public PlatformConfig parse(String text, String source) throws InvalidPlatformConfigException {
        Map<String, PlatformConfig> byEnvironment = parseAll(text, source);
        PlatformConfig chosen = byEnvironment.get(environment);
        if (chosen == null) {
            throw withLines(new InvalidPlatformConfigException(source, List.of(new ConfigProblem("/environments",
                    "no environment '" + environment + "' in this document; it has " + byEnvironment.keySet()))), text, source);
        }
        return chosen;
    }

    /**
     * Parses and validates, giving what a client of each environment of the document sees, by name ({@code default}
     * first, then the document's order): for a tool that edits every environment, as a drain does.
     *
     * @throws InvalidPlatformConfigException naming every problem with its key and line
     */
    public Map<String, PlatformConfig> parseAll(String text, String source) throws InvalidPlatformConfigException {
        if (text == null || text.isBlank()) {
            throw new InvalidPlatformConfigException(source, List.of(new ConfigProblem("", "the document is empty")));
        }
        RawPlatformConfig raw = read(text, source);
        if (raw.environments == null) {
            raw.environments = Map.of();
        }
        try {
            Map<String, PlatformConfig> byEnvironment = new LinkedHashMap<>();
            byEnvironment.put(Environments.DEFAULT, toConfig(raw).build(source));
            List<ConfigProblem> problems = new ArrayList<>();
            for (String name : raw.environments.keySet()) {
                if (Environments.DEFAULT.equals(name)) {
                    problems.add(new ConfigProblem(Environments.pointer(name), "'default' is the top level of the "
                            + "document; an environment needs another name"));
                    continue;
                }
                try {
                    byEnvironment.put(name, toConfig(Environments.resolve(raw, name)).build(source));
                } catch (InvalidPlatformConfigException e) {
                    e.problems().forEach(p -> problems.add(new ConfigProblem(Environments.pointer(name) + p.pointer(),
                            "in environment '" + name + "': " + p.message())));
                }
            }
            if (problems.isEmpty()) {
                problems.addAll(Environments.meetings(byEnvironment));
            }
            if (!problems.isEmpty()) {
                throw new InvalidPlatformConfigException(source, problems);
            }
            return Collections.unmodifiableMap(byEnvironment);
        } catch (InvalidPlatformConfigException e) {
            throw withLines(e, text, source);
        }
    }

    /** The environment this parser resolves. */
    public String environment() {
        return environment;
    }

    private RawPlatformConfig read(String text, String source) throws InvalidPlatformConfigException {
        try {
            RawPlatformConfig raw = mapper.readValue(text, RawPlatformConfig.class);
            if (raw == null) {
                throw new InvalidPlatformConfigException(source, List.of(new ConfigProblem("", "the document is empty")));
            }
            return raw;
        } catch (JsonMappingException e) {
            if (e.getCause() instanceof StreamReadException malformed) {
                throw malformed(malformed, source);
            }
            String pointer = e.getPath().stream()
                    .map(ref -> ref.getFieldName() != null ? "/" + PlatformConfigValidator.escape(ref.getFieldName()) : "/" + ref.getIndex())
                    .collect(Collectors.joining());
            throw new InvalidPlatformConfigException(source, List.of(new ConfigProblem(pointer, oneLine(e.getOriginalMessage()), lineOf(e))));
        } catch (JsonProcessingException e) {
            throw malformed(e, source);
        }
    }

    private static InvalidPlatformConfigException malformed(JsonProcessingException e, String source) {
        return new InvalidPlatformConfigException(source,
                List.of(new ConfigProblem("", "malformed document: " + oneLine(e.getOriginalMessage()), lineOf(e))));
    }

    /** YAML errors quote the source over several lines; a log line should stay one line. */
    private static String oneLine(String message) {
        return message == null ? "" : message.strip().replaceAll("\\s+", " ");
    }

    private static int lineOf(JsonProcessingException e) {
        return e.getLocation() == null ? 0 : e.getLocation().getLineNr();
    }

    private InvalidPlatformConfigException withLines(InvalidPlatformConfigException e, String text, String source) {
        try {
            SourceLines lines = SourceLines.index(factory, text);
            List<ConfigProblem> located = new ArrayList<>();
            for (ConfigProblem problem : e.problems()) {
                located.add(problem.atLine(lines.lineOf(problem.pointer())));
            }
            return new InvalidPlatformConfigException(source, located);
        } catch (IOException unreadable) {
            return e; // it parsed once already; without lines the message still names every key
        }
    }

    private static PlatformConfig.Builder toConfig(RawPlatformConfig raw) {
        PlatformConfig.Builder builder = PlatformConfig.builder().binding(raw.binding);
        if (raw.clusters != null) {
            raw.clusters.forEach((name, c) -> builder.cluster(c == null ? new ClusterConfig(name, null, null, Map.of())
                    : new ClusterConfig(name, c.idc, c.nameServer, c.properties == null ? Map.of() : c.properties,
                            toCredentials(c.credentials), Boolean.TRUE.equals(c.tls))));
        }
        ProducerConfig producer = ProducerConfig.DEFAULTS;
        if (raw.producer != null) {
            producer = new ProducerConfig(
                    raw.producer.sendTimeoutMs == null ? producer.sendTimeout() : Duration.ofMillis(raw.producer.sendTimeoutMs),
                    raw.producer.maxBodyBytes == null ? producer.maxBodyBytes() : raw.producer.maxBodyBytes,
                    raw.producer.retries == null ? producer.retries() : raw.producer.retries,
                    raw.producer.failoverAfterMs == null ? producer.failoverAfter() : Duration.ofMillis(raw.producer.failoverAfterMs),
                    merge(producer.batch(), raw.producer.batch),
                    raw.producer.maxHeldBytes == null ? producer.maxHeldBytes() : raw.producer.maxHeldBytes);
        }
        ConsumerConfig consumerDefaults = merge(ConsumerConfig.DEFAULTS, raw.consumer);
        builder.producer(producer).consumerDefaults(consumerDefaults).delay(toDelay(raw.delay)).proxy(toProxy(raw.proxy))
                .stressTest(raw.stressTest == null || raw.stressTest.shadowSuffix == null ? StressTestConfig.DEFAULTS
                        : new StressTestConfig(raw.stressTest.shadowSuffix))
                .consumerGroupSuffix(raw.consumerGroupSuffix);
        if (raw.topics != null) {
            BatchConfig batchDefaults = producer.batch();
            raw.topics.forEach((name, t) -> builder.topic(toTopic(name, t == null ? new RawTopic() : t, consumerDefaults,
                    batchDefaults)));
        }
        return builder;
    }

    private static Optional<CredentialsRef> toCredentials(RawPlatformConfig.RawCredentials raw) {
        return raw == null ? Optional.empty() : Optional.of(new CredentialsRef(raw.accessKeyEnv, raw.secretKeyEnv, raw.file));
    }

    private static DelayConfig toDelay(RawPlatformConfig.RawDelay raw) {
        DelayConfig defaults = DelayConfig.DEFAULTS;
        if (raw == null) {
            return defaults;
        }
        return new DelayConfig(raw.internalTopic == null ? defaults.internalTopic() : raw.internalTopic,
                raw.serverGroup == null ? defaults.serverGroup() : raw.serverGroup,
                raw.maxDelayMs == null ? defaults.maxDelay() : Duration.ofMillis(raw.maxDelayMs),
                raw.cancelTimeoutMs == null ? defaults.cancelTimeout() : Duration.ofMillis(raw.cancelTimeoutMs));
    }

    private static ConsumerProxyConfig toProxy(RawPlatformConfig.RawProxy raw) {
        if (raw == null) {
            return ConsumerProxyConfig.NONE;
        }
        // A null or blank entry is kept (as given) so the validator names it; Path.of would throw on some inputs.
        List<String> endpoints = raw.endpoints == null ? List.of() : raw.endpoints.stream().map(e -> e == null ? "" : e).toList();
        return new ConsumerProxyConfig(endpoints, raw.caCertificate == null || raw.caCertificate.isBlank()
                ? Optional.empty() : Optional.of(Path.of(raw.caCertificate)));
    }

    private static LogicTopicConfig toTopic(String name, RawTopic raw, ConsumerConfig consumerDefaults,
                                            BatchConfig batchDefaults) {
        List<TopicRoute> routes = new ArrayList<>();
        for (RawRoute route : raw.routes == null ? List.<RawRoute>of() : raw.routes) {
            RawRoute r = route == null ? new RawRoute() : route;
            routes.add(new TopicRoute(r.cluster, r.physicalTopic, r.weight == null ? DEFAULT_ROUTE_WEIGHT : r.weight, Optional.ofNullable(r.shadowTopic)));
        }
        Map<String, ConsumerConfig> groups = new LinkedHashMap<>();
        if (raw.consumerGroups != null) {
            raw.consumerGroups.forEach((group, settings) -> groups.put(group, merge(consumerDefaults, settings)));
        }
        return new LogicTopicConfig(name, routes, groups, raw.rateLimitPerSecond == null ? 0 : raw.rateLimitPerSecond,
                Boolean.TRUE.equals(raw.stressTest), Optional.ofNullable(raw.batch).map(b -> merge(batchDefaults, b)));
    }

    /** A topic's or the producer's batch settings: what is given, over {@code base}. */
    private static BatchConfig merge(BatchConfig base, RawPlatformConfig.RawBatch override) {
        if (override == null) {
            return base;
        }
        return new BatchConfig(
                override.maxMessages == null ? base.maxMessages() : override.maxMessages,
                override.maxBytes == null ? base.maxBytes() : override.maxBytes,
                override.maxInFlight == null ? base.maxInFlight() : override.maxInFlight,
                override.lingerMs == null ? base.linger() : Duration.ofMillis(override.lingerMs));
    }

    private static ConsumerConfig merge(ConsumerConfig base, RawConsumer override) {
        if (override == null) {
            return base;
        }
        return new ConsumerConfig(
                override.threads == null ? base.threads() : override.threads,
                override.maxDeliveryAttempts == null ? base.maxDeliveryAttempts() : override.maxDeliveryAttempts,
                override.startFrom == null ? base.startPosition() : override.startFrom,
                override.batchSize == null ? base.batchSize() : override.batchSize,
                override.mode == null ? base.mode() : override.mode,
                override.maxInFlight == null ? base.maxInFlight() : override.maxInFlight,
                override.maxPerSecond == null ? base.maxPerSecond() : override.maxPerSecond,
                override.deduplicateWindowMs == null ? base.deduplicateWindow() : Duration.ofMillis(override.deduplicateWindowMs),
                override.deduplicateBy == null ? base.deduplicateBy() : override.deduplicateBy);
    }
}
