package io.lanemq.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a snapshot in the document form {@link PlatformConfigParser} reads, so tools can build a
 * configuration in code and hand it to anything that takes a file (or, later, a config centre).
 */
public final class PlatformConfigWriter {
    private final ObjectMapper yaml = new ObjectMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .build());

    public String toYaml(PlatformConfig config) {
        Map<String, Object> document = new LinkedHashMap<>();
        config.binding().ifPresent(b -> document.put("binding", b));
        Map<String, Object> clusters = new LinkedHashMap<>();
        config.clusters().values().forEach(c -> clusters.put(c.name(), cluster(c)));
        document.put("clusters", clusters);
        Map<String, Object> producer = new LinkedHashMap<>();
        producer.put("sendTimeoutMs", config.producer().sendTimeout().toMillis());
        producer.put("maxBodyBytes", config.producer().maxBodyBytes());
        producer.put("retries", config.producer().retries());
        producer.put("failoverAfterMs", config.producer().failoverAfter().toMillis());
        producer.put("batch", batch(config.producer().batch()));
        producer.put("maxHeldBytes", config.producer().maxHeldBytes());
        document.put("producer", producer);
        document.put("consumer", consumer(config.consumerDefaults()));
        Map<String, Object> delay = new LinkedHashMap<>();
        delay.put("internalTopic", config.delay().internalTopic());
        delay.put("serverGroup", config.delay().serverGroup());
        delay.put("maxDelayMs", config.delay().maxDelay().toMillis());
        delay.put("cancelTimeoutMs", config.delay().cancelTimeout().toMillis());
        document.put("delay", delay);
        if (config.proxy().configured() || config.proxy().caCertificate().isPresent()) {
            Map<String, Object> proxy = new LinkedHashMap<>();
            proxy.put("endpoints", config.proxy().endpoints());
            config.proxy().caCertificate().ifPresent(ca -> proxy.put("caCertificate", ca.toString()));
            document.put("proxy", proxy);
        }
        document.put("stressTest", Map.of("shadowSuffix", config.stressTest().shadowSuffix()));
        if (!config.consumerGroupSuffix().isEmpty()) {
            document.put("consumerGroupSuffix", config.consumerGroupSuffix());
        }
        Map<String, Object> topics = new LinkedHashMap<>();
        config.topics().values().forEach(t -> topics.put(t.name(), topic(t)));
        document.put("topics", topics);
        try {
            return yaml.writeValueAsString(document);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("a snapshot of plain values failed to serialise", e);
        }
    }

    private static Map<String, Object> cluster(ClusterConfig cluster) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("idc", cluster.idc());
        out.put("nameServer", cluster.nameServer());
        if (!cluster.properties().isEmpty()) {
            out.put("properties", new TreeMap<>(cluster.properties()));
        }
        if (cluster.tls()) {
            out.put("tls", true);
        }
        cluster.credentials().ifPresent(credentials -> out.put("credentials", credentials(credentials)));
        return out;
    }

    private static Map<String, Object> credentials(CredentialsRef credentials) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (credentials.file() != null) {
            out.put("file", credentials.file());
        } else {
            out.put("accessKeyEnv", credentials.accessKeyEnv());
            out.put("secretKeyEnv", credentials.secretKeyEnv());
        }
        return out;
    }

    private static Map<String, Object> consumer(ConsumerConfig settings) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("threads", settings.threads());
        out.put("maxDeliveryAttempts", settings.maxDeliveryAttempts());
        out.put("startFrom", settings.startPosition().name());
        out.put("batchSize", settings.batchSize());
        out.put("mode", settings.mode().name());
        if (settings.maxInFlight() > 0) {
            out.put("maxInFlight", settings.maxInFlight());
        }
        if (settings.maxPerSecond() > 0) {
            out.put("maxPerSecond", settings.maxPerSecond());
        }
        if (settings.deduplication().isPresent()) {
            out.put("deduplicateWindowMs", settings.deduplicateWindow().toMillis());
            out.put("deduplicateBy", settings.deduplicateBy().name());
        }
        return out;
    }

    private static Map<String, Object> topic(LogicTopicConfig topic) {
        List<Map<String, Object>> routes = new ArrayList<>();
        for (TopicRoute route : topic.routes()) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("cluster", route.cluster());
            out.put("physicalTopic", route.physicalTopic());
            out.put("weight", route.weight());
            route.shadowTopic().ifPresent(shadow -> out.put("shadowTopic", shadow));
            routes.add(out);
        }
        Map<String, Object> groups = new LinkedHashMap<>();
        topic.consumerGroups().forEach((name, settings) -> groups.put(name, consumer(settings)));
        Map<String, Object> out = new LinkedHashMap<>();
        if (topic.stressTest()) {
            out.put("stressTest", true);
        }
        out.put("routes", routes);
        out.put("consumerGroups", groups);
        if (topic.rateLimitPerSecond() > 0) {
            out.put("rateLimitPerSecond", topic.rateLimitPerSecond());
        }
        topic.batch().ifPresent(b -> out.put("batch", batch(b)));
        return out;
    }

    private static Map<String, Object> batch(BatchConfig batch) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("maxMessages", batch.maxMessages());
        out.put("maxBytes", batch.maxBytes());
        out.put("maxInFlight", batch.maxInFlight());
        out.put("lingerMs", batch.linger().toMillis());
        return out;
    }
}
