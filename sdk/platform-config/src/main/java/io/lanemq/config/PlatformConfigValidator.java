package io.lanemq.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** The rules a snapshot must meet; each broken rule becomes a {@link ConfigProblem} naming its key. */
final class PlatformConfigValidator {
    /** What RocketMQ accepts as a topic or group name; also used for cluster and logic topic names. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.\\-]{1,127}");
    /** RocketMQ's longest topic name. */
    static final int MAX_TOPIC_NAME = 127;
    /** Characters of a topic name, so a suffix keeps a valid name valid. */
    private static final Pattern NAME_CHARS = Pattern.compile("[A-Za-z0-9_.\\-]+");
    private static final Pattern ADDRESSES = Pattern.compile("[^;:\\s]+:\\d{1,5}(;[^;:\\s]+:\\d{1,5})*");
    private static final Pattern ENVIRONMENT_VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");
    private static final Pattern ENDPOINT = Pattern.compile("[^;:\\s/]+:\\d{1,5}");
    /** Well above any broker's default maximum; a larger body belongs in object storage. */
    static final int MAX_BODY_BYTES_LIMIT = ProducerConfig.MAX_BODY_BYTES_LIMIT;
    static final int MAX_CONSUMER_THREADS = 1024;
    /**
     * A day: the window only catches copies that arrive within it (the SDK's own late copies come within seconds, a
     * broker's redelivery within minutes), and a longer one is almost certainly a unit mistake.
     */
    static final Duration MAX_DEDUPLICATE_WINDOW = Duration.ofDays(1);
    /** RocketMQ caps one pull at 1024 messages; a group asking for more would silently get less. */
    static final int MAX_BATCH_SIZE = 1024;
    /** More retries than clusters are never used; a large number is almost certainly a typo. */
    static final int MAX_RETRIES = 8;
    /** RocketMQ stores a batch message by message; beyond this a request is mostly a long wait for its last one. */
    static final int MAX_BATCH_MESSAGES = 1024;
    static final Duration MAX_LINGER = Duration.ofMillis(100);
    /** What one proxy can hold for a group without its heap becoming the limit (300 B messages: ~300 MB). */
    static final int MAX_IN_FLIGHT = 1_000_000;

    private final PlatformConfig.Builder draft;
    private final List<ConfigProblem> problems = new ArrayList<>();

    PlatformConfigValidator(PlatformConfig.Builder draft) {
        this.draft = draft;
    }

    List<ConfigProblem> problems() {
        checkBinding();
        checkClusters();
        checkProducer("/producer", draft.producer());
        checkConsumer("/consumer", draft.consumerDefaults());
        checkDelay("/delay", draft.delay());
        checkTopics();
        checkStressTest();
        checkProxy("/proxy", draft.proxy());
        checkGroupSuffix();
        return problems;
    }

    /** Group names on the brokers are names too: letters, digits, '.', '_' and '-'. */
    private void checkGroupSuffix() {
        String suffix = draft.consumerGroupSuffix();
        if (!suffix.isEmpty() && !suffix.matches("[A-Za-z0-9._-]{1,32}")) {
            problems.add(new ConfigProblem("/consumerGroupSuffix", "must be 1-32 letters, digits, '.', '_' or '-', was '"
                    + suffix + "'"));
        }
    }

    private void checkBinding() {
        if (draft.binding() != null && draft.binding().isBlank()) {
            problems.add(new ConfigProblem("/binding", "must not be blank"));
        }
    }

    private void checkClusters() {
        if (draft.clusters().isEmpty()) {
            problems.add(new ConfigProblem("/clusters", "at least one cluster is required"));
        }
        for (ClusterConfig cluster : draft.clusters().values()) {
            String at = "/clusters/" + escape(cluster.name());
            checkName(at, cluster.name(), "cluster name");
            if (cluster.idc() == null || cluster.idc().isBlank()) {
                problems.add(new ConfigProblem(at + "/idc", "is required"));
            }
            if (cluster.nameServer() == null || !ADDRESSES.matcher(cluster.nameServer()).matches()) {
                problems.add(new ConfigProblem(at + "/nameServer",
                        "must be host:port[;host:port...], was " + quoted(cluster.nameServer())));
            }
            cluster.properties().keySet().stream().filter(SecretKeys::looksSecret).sorted().forEach(key ->
                    problems.add(new ConfigProblem(at + "/properties/" + escape(key), SecretKeys.WHERE_INSTEAD)));
            cluster.credentials().ifPresent(credentials -> checkCredentials(at + "/credentials", credentials));
        }
    }

    /** Exactly one form: two environment variable names, or a file. */
    private void checkCredentials(String at, CredentialsRef credentials) {
        boolean environment = credentials.accessKeyEnv() != null || credentials.secretKeyEnv() != null;
        if (credentials.file() != null) {
            if (environment) {
                problems.add(new ConfigProblem(at, "give either accessKeyEnv and secretKeyEnv or file, not both"));
            } else if (credentials.file().isBlank()) {
                problems.add(new ConfigProblem(at + "/file", "must be the path of a properties file with accessKey= and "
                        + "secretKey="));
            }
            return;
        }
        if (!environment) {
            problems.add(new ConfigProblem(at, "needs accessKeyEnv and secretKeyEnv (environment variable names) or "
                    + "file (a properties file with accessKey= and secretKey=)"));
            return;
        }
        checkVariable(at + "/accessKeyEnv", credentials.accessKeyEnv());
        checkVariable(at + "/secretKeyEnv", credentials.secretKeyEnv());
    }

    private void checkVariable(String at, String name) {
        if (name == null || !ENVIRONMENT_VARIABLE.matcher(name).matches()) {
            problems.add(new ConfigProblem(at, "must be the name of an environment variable (letters, digits, '_'), was "
                    + quoted(name)));
        }
    }

    private void checkProducer(String at, ProducerConfig producer) {
        if (producer.sendTimeout().isNegative() || producer.sendTimeout().isZero()) {
            problems.add(new ConfigProblem(at + "/sendTimeoutMs", "must be > 0, was " + producer.sendTimeout().toMillis()));
        }
        if (producer.maxBodyBytes() < 1 || producer.maxBodyBytes() > MAX_BODY_BYTES_LIMIT) {
            problems.add(new ConfigProblem(at + "/maxBodyBytes",
                    "must be between 1 and " + MAX_BODY_BYTES_LIMIT + ", was " + producer.maxBodyBytes()));
        }
        if (producer.failoverAfter().isNegative() || producer.failoverAfter().isZero()
                || producer.failoverAfter().compareTo(producer.sendTimeout()) > 0) {
            problems.add(new ConfigProblem(at + "/failoverAfterMs", "must be > 0 and at most sendTimeoutMs ("
                    + producer.sendTimeout().toMillis() + "), was " + producer.failoverAfter().toMillis()));
        }
        if (producer.retries() < 0 || producer.retries() > MAX_RETRIES) {
            problems.add(new ConfigProblem(at + "/retries", "must be between 0 and " + MAX_RETRIES + ", was " + producer.retries()));
        }
        if (producer.maxHeldBytes() < producer.maxBodyBytes()) {
            problems.add(new ConfigProblem(at + "/maxHeldBytes", "must be at least maxBodyBytes (" + producer.maxBodyBytes()
                    + "), or the largest message could never be sent; was " + producer.maxHeldBytes()));
        }
        checkBatch(at + "/batch", producer.batch(), null);
    }

    /** Checks a batch section; a topic's ({@code inherited} non-null) only in what it changes, so nothing is named twice. */
    private void checkBatch(String at, BatchConfig batch, BatchConfig inherited) {
        if (inherited != null) {
            checkBatch(at, new BatchConfig(
                    batch.maxMessages() == inherited.maxMessages() ? BatchConfig.DEFAULTS.maxMessages() : batch.maxMessages(),
                    batch.maxBytes() == inherited.maxBytes() ? BatchConfig.DEFAULTS.maxBytes() : batch.maxBytes(),
                    batch.maxInFlight() == inherited.maxInFlight() ? BatchConfig.DEFAULTS.maxInFlight() : batch.maxInFlight(),
                    batch.linger().equals(inherited.linger()) ? BatchConfig.DEFAULTS.linger() : batch.linger()), null);
            return;
        }
        if (batch.maxMessages() < 1 || batch.maxMessages() > MAX_BATCH_MESSAGES) {
            problems.add(new ConfigProblem(at + "/maxMessages", "must be between 1 (no gathering) and " + MAX_BATCH_MESSAGES
                    + ", was " + batch.maxMessages()));
        }
        if (batch.maxBytes() < 1 || batch.maxBytes() > BatchConfig.MAX_BYTES_LIMIT) {
            problems.add(new ConfigProblem(at + "/maxBytes", "must be between 1 and " + BatchConfig.MAX_BYTES_LIMIT
                    + " (the broker's largest request, less its headers), was " + batch.maxBytes()));
        }
        if (batch.maxInFlight() < 1) {
            problems.add(new ConfigProblem(at + "/maxInFlight", "must be >= 1, was " + batch.maxInFlight()));
        }
        if (batch.linger().isNegative() || batch.linger().compareTo(MAX_LINGER) > 0) {
            problems.add(new ConfigProblem(at + "/lingerMs", "must be between 0 and " + MAX_LINGER.toMillis()
                    + " (a gathering that waits longer is a delay, not a batch), was " + batch.linger().toMillis()));
        }
    }

    private void checkDelay(String at, DelayConfig delay) {
        if (delay == null) {
            problems.add(new ConfigProblem(at, "must not be null"));
            return;
        }
        checkName(at + "/internalTopic", delay.internalTopic(), "topic name");
        checkName(at + "/serverGroup", delay.serverGroup(), "group name");
        if (delay.maxDelay() == null || delay.maxDelay().isNegative() || delay.maxDelay().isZero()) {
            problems.add(new ConfigProblem(at + "/maxDelayMs", "must be > 0, was " + millis(delay.maxDelay())));
        }
        if (delay.cancelTimeout() == null || delay.cancelTimeout().isNegative() || delay.cancelTimeout().isZero()) {
            problems.add(new ConfigProblem(at + "/cancelTimeoutMs", "must be > 0, was " + millis(delay.cancelTimeout())));
        }
    }

    private void checkProxy(String at, ConsumerProxyConfig proxy) {
        if (proxy == null) {
            problems.add(new ConfigProblem(at, "must not be null"));
            return;
        }
        for (int i = 0; i < proxy.endpoints().size(); i++) {
            String endpoint = proxy.endpoints().get(i);
            if (endpoint == null || !ENDPOINT.matcher(endpoint).matches()) {
                problems.add(new ConfigProblem(at + "/endpoints/" + i, "must be host:port, was " + quoted(endpoint)));
            }
        }
        List<String> proxied = proxiedGroups();
        if (proxied.isEmpty()) {
            return;
        }
        if (!proxy.configured()) {
            problems.add(new ConfigProblem(at + "/endpoints", "at least one proxy endpoint is required: consumer groups "
                    + proxied + " use PROXY mode"));
        }
        if (proxy.caCertificate().isEmpty()) {
            problems.add(new ConfigProblem(at + "/caCertificate", "a PEM CA certificate is required (TLS is mandatory): "
                    + "consumer groups " + proxied + " use PROXY mode"));
        }
    }

    /** {@code group@topic} of every group in PROXY mode. */
    private List<String> proxiedGroups() {
        List<String> proxied = new ArrayList<>();
        for (LogicTopicConfig topic : draft.topics().values()) {
            topic.consumerGroups().forEach((group, settings) -> {
                if (settings.mode() == ConsumptionMode.PROXY) {
                    proxied.add(group + "@" + topic.name());
                }
            });
        }
        return proxied;
    }

    private static String millis(Duration duration) {
        return duration == null ? "null" : String.valueOf(duration.toMillis());
    }

    private void checkConsumer(String at, ConsumerConfig consumer) {
        if (consumer.threads() < 1 || consumer.threads() > MAX_CONSUMER_THREADS) {
            problems.add(new ConfigProblem(at + "/threads",
                    "must be between 1 and " + MAX_CONSUMER_THREADS + ", was " + consumer.threads()));
        }
        if (consumer.maxDeliveryAttempts() < 1) {
            problems.add(new ConfigProblem(at + "/maxDeliveryAttempts", "must be >= 1, was " + consumer.maxDeliveryAttempts()));
        }
        if (consumer.startPosition() == null) {
            problems.add(new ConfigProblem(at + "/startFrom", "is required"));
        }
        if (consumer.batchSize() < 1 || consumer.batchSize() > MAX_BATCH_SIZE) {
            problems.add(new ConfigProblem(at + "/batchSize", "must be between 1 and " + MAX_BATCH_SIZE + ", was " + consumer.batchSize()));
        }
        if (consumer.maxInFlight() < 0 || consumer.maxInFlight() > MAX_IN_FLIGHT) {
            problems.add(new ConfigProblem(at + "/maxInFlight",
                    "must be between 0 (the proxy's default) and " + MAX_IN_FLIGHT + ", was " + consumer.maxInFlight()));
        }
        if (consumer.maxPerSecond() < 0) {
            problems.add(new ConfigProblem(at + "/maxPerSecond", "must be 0 (unlimited) or more, was " + consumer.maxPerSecond()));
        }
        if (consumer.deduplicateWindow() == null || consumer.deduplicateWindow().isNegative()
                || consumer.deduplicateWindow().compareTo(MAX_DEDUPLICATE_WINDOW) > 0) {
            problems.add(new ConfigProblem(at + "/deduplicateWindowMs", "must be 0 (off) to " + MAX_DEDUPLICATE_WINDOW.toMillis()
                    + " (" + MAX_DEDUPLICATE_WINDOW + "), was " + millis(consumer.deduplicateWindow())));
        }
        if (consumer.deduplicateBy() == null) {
            problems.add(new ConfigProblem(at + "/deduplicateBy", "must be MESSAGE_ID or FIRST_KEY"));
        }
        if (consumer.mode() == null) {
            problems.add(new ConfigProblem(at + "/mode", "is required (DIRECT or PROXY)"));
        }
    }

    private void checkTopics() {
        for (LogicTopicConfig topic : draft.topics().values()) {
            String at = "/topics/" + escape(topic.name());
            checkName(at, topic.name(), "logic topic name");
            if (topic.routes().isEmpty()) {
                problems.add(new ConfigProblem(at + "/routes", "at least one route is required"));
                continue;
            }
            checkRoutes(at, topic.routes());
            topic.batch().ifPresent(batch -> checkBatch(at + "/batch", batch, draft.producer().batch()));
            if (topic.rateLimitPerSecond() < 0) {
                problems.add(new ConfigProblem(at + "/rateLimitPerSecond", "must be >= 0 (0: unlimited), was " + topic.rateLimitPerSecond()));
            }
            for (Map.Entry<String, ConsumerConfig> group : topic.consumerGroups().entrySet()) {
                String groupAt = at + "/consumerGroups/" + escape(group.getKey());
                checkName(groupAt, group.getKey(), "consumer group name");
                checkConsumer(groupAt, group.getValue());
            }
        }
    }

    private void checkRoutes(String topicAt, List<TopicRoute> routes) {
        Set<String> seenClusters = new HashSet<>();
        long totalWeight = 0;
        for (int i = 0; i < routes.size(); i++) {
            TopicRoute route = routes.get(i);
            String at = topicAt + "/routes/" + i;
            if (!draft.clusters().containsKey(route.cluster())) {
                problems.add(new ConfigProblem(at + "/cluster", "unknown cluster " + quoted(route.cluster())
                        + "; known: " + draft.clusters().keySet()));
            } else if (!seenClusters.add(route.cluster())) {
                problems.add(new ConfigProblem(at + "/cluster", "cluster " + quoted(route.cluster())
                        + " appears twice; a logic topic has one route per cluster"));
            }
            checkName(at + "/physicalTopic", route.physicalTopic(), "physical topic");
            if (route.weight() < 0) {
                problems.add(new ConfigProblem(at + "/weight", "must be >= 0, was " + route.weight()));
            }
            totalWeight += Math.max(0, route.weight());
        }
        if (totalWeight == 0) {
            problems.add(new ConfigProblem(topicAt + "/routes", "weights sum to zero, so no send could be routed"));
        }
    }

    /**
     * Every shadow topic must be a valid topic name and must not be a production topic of the same
     * cluster: stress-test traffic sent there would mix with production messages.
     */
    private void checkStressTest() {
        StressTestConfig stress = draft.stressTest();
        if (stress == null) {
            problems.add(new ConfigProblem("/stressTest", "must not be null"));
            return;
        }
        String suffix = stress.shadowSuffix();
        boolean suffixValid = suffix != null && suffix.length() < MAX_TOPIC_NAME && NAME_CHARS.matcher(suffix).matches();
        if (!suffixValid) {
            problems.add(new ConfigProblem("/stressTest/shadowSuffix", "must be 1-" + (MAX_TOPIC_NAME - 1)
                    + " letters, digits, '.', '_' or '-' (an empty suffix would make the shadow topic the production topic),"
                    + " was " + quoted(suffix)));
        }
        Map<String, String> productionTopics = new HashMap<>();
        for (LogicTopicConfig topic : draft.topics().values()) {
            topic.routes().forEach(r -> productionTopics.putIfAbsent(r.cluster() + "/" + r.physicalTopic(), topic.name()));
        }
        for (LogicTopicConfig topic : draft.topics().values()) {
            for (int i = 0; i < topic.routes().size(); i++) {
                TopicRoute route = topic.routes().get(i);
                String at = "/topics/" + escape(topic.name()) + "/routes/" + i;
                boolean explicit = route.shadowTopic().isPresent();
                if (explicit) {
                    checkName(at + "/shadowTopic", route.shadowTopic().get(), "shadow topic");
                }
                if (!topic.stressTest() || !explicit && (!suffixValid || route.physicalTopic() == null)) {
                    continue; // nothing to check, or the cause is reported already
                }
                String shadow = stress.shadowTopicOf(route);
                String field = at + (explicit ? "/shadowTopic" : "/physicalTopic");
                if (!explicit && shadow.length() > MAX_TOPIC_NAME) {
                    problems.add(new ConfigProblem(field, "with stressTest.shadowSuffix " + quoted(suffix) + " its shadow topic is "
                            + shadow.length() + " characters, over RocketMQ's " + MAX_TOPIC_NAME
                            + "; shorten the suffix or set shadowTopic on this route"));
                }
                String production = productionTopics.get(route.cluster() + "/" + shadow);
                if (production != null) {
                    problems.add(new ConfigProblem(field, "the shadow topic " + quoted(shadow) + " on cluster "
                            + quoted(route.cluster()) + " is a production topic of logic topic " + quoted(production)
                            + "; stress-test traffic must never reach a production topic"));
                }
            }
        }
    }

    private void checkName(String at, String name, String what) {
        if (name == null || !NAME.matcher(name).matches()) {
            problems.add(new ConfigProblem(at, what + " must be 1-127 letters, digits, '.', '_' or '-', was " + quoted(name)));
        }
    }

    private static String quoted(String value) {
        return value == null ? "nothing" : "'" + value + "'";
    }

    /** JSON pointer escaping, so a name with '/' cannot forge a path. */
    static String escape(String name) {
        return name == null ? "null" : name.replace("~", "~0").replace("/", "~1");
    }
}
