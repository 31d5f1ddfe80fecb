package io.lanemq.core.it;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.MessagingException;
import io.lanemq.core.config.ClusterConfig;
import io.lanemq.core.config.ConsumerSettings;
import io.lanemq.core.config.LogicTopicConfig;
import io.lanemq.core.config.PlatformConfig;
import io.lanemq.core.config.PlatformConfigWriter;
import io.lanemq.core.config.ProducerSettings;
import io.lanemq.core.config.StartPosition;
import io.lanemq.core.config.TopicRoute;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.RocketMqStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A platform configuration for integration tests on the shared dual-IDC stack: each logic topic
 * gets fresh physical topics on both clusters, so tests sharing the stack never see each other's
 * messages. Consumer groups start from the earliest offset, so a test may send before it subscribes.
 */
final class TestPlatform {
    /** Fast discovery, so a brand-new consumer group is assigned queues within seconds. */
    static final Map<String, String> FAST_CLIENT = Map.of(
            "rocketmq.heartbeatBrokerIntervalMs", "1000",
            "rocketmq.pollNameServerIntervalMs", "1000",
            "rocketmq.persistConsumerOffsetIntervalMs", "1000");
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final String RUN = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
    private static final ConsumerSettings GROUP_SETTINGS = new ConsumerSettings(4, 5, StartPosition.EARLIEST);

    private final RocketMqStack stack = RocketMqStack.shared();
    private final List<LogicTopicConfig> topics = new ArrayList<>();
    private int maxBodyBytes = 4 * 1024 * 1024;

    /** A name no other test of this run uses (broker-wide names: topics and consumer groups). */
    static String unique(String base) {
        return base + "-" + RUN + "-" + SEQUENCE.incrementAndGet();
    }

    /**
     * Adds a logic topic routed to cluster A and B with the given weights, on physical topics created now.
     *
     * @param groups consumer groups declared for it (use {@link #unique} names)
     */
    TestPlatform topic(String logicTopic, int queues, int weightA, int weightB, String... groups) {
        String physical = unique(logicTopic).replace('.', '_');
        stack.createTopic(physical, queues);
        Map<String, ConsumerSettings> declared = new LinkedHashMap<>();
        for (String group : groups) {
            declared.put(group, GROUP_SETTINGS);
        }
        topics.add(new LogicTopicConfig(logicTopic, List.of(
                new TopicRoute(idcA().clusterName(), physical, weightA),
                new TopicRoute(idcB().clusterName(), physical, weightB)), declared));
        return this;
    }

    TestPlatform maxBodyBytes(int maxBodyBytes) {
        this.maxBodyBytes = maxBodyBytes;
        return this;
    }

    Idc idcA() {
        return stack.idcs().get(0);
    }

    Idc idcB() {
        return stack.idcs().get(1);
    }

    String yaml() {
        PlatformConfig.Builder builder = PlatformConfig.builder()
                .producer(new ProducerSettings(Duration.ofSeconds(5), maxBodyBytes))
                .consumerDefaults(GROUP_SETTINGS);
        for (Idc idc : stack.idcs()) {
            builder.cluster(new ClusterConfig(idc.clusterName(), idc.name(), idc.nameServerAddress(), FAST_CLIENT));
        }
        topics.forEach(builder::topic);
        try {
            return new PlatformConfigWriter().toYaml(builder.build());
        } catch (MessagingException e) {
            throw new IllegalStateException("the test platform itself is invalid", e);
        }
    }

    Path write() {
        try {
            Path file = Files.createTempFile("lanemq-platform-", ".yaml");
            file.toFile().deleteOnExit();
            Files.writeString(file, yaml());
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A client on this configuration, found through the public API's service loader. */
    MessagingClient client(String applicationName) throws MessagingException {
        return MessagingClient.create(ClientOptions.builder(applicationName).configLocation(write().toString()).build());
    }
}
