package io.lanemq.localstack;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.MessagingException;
import io.lanemq.core.config.ClusterConfig;
import io.lanemq.core.config.ConsumerSettings;
import io.lanemq.core.config.LogicTopicConfig;
import io.lanemq.core.config.PlatformConfig;
import io.lanemq.core.config.PlatformConfigWriter;
import io.lanemq.core.config.StartPosition;
import io.lanemq.core.config.TopicRoute;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.StackSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The embedded default platform: a real dual-IDC RocketMQ stack on loopback (one cluster per
 * IDC) and a platform configuration file describing it. Logic topics added here exist on both
 * clusters under the same physical name.
 *
 * <pre>{@code
 * try (LocalPlatform platform = LocalPlatform.start()) {
 *     platform.addTopic("orders", 8, 50, 50, "billing");
 *     try (MessagingClient client = platform.client("my-app")) { ... }
 * }
 * }</pre>
 */
public final class LocalPlatform implements AutoCloseable {
    /** Client tuning for a stack that starts and changes in seconds. */
    private static final Map<String, String> CLIENT_TUNING = Map.of(
            "rocketmq.heartbeatBrokerIntervalMs", "1000",
            "rocketmq.pollNameServerIntervalMs", "1000",
            "rocketmq.persistConsumerOffsetIntervalMs", "1000");

    private final RocketMqStack stack;
    private final Map<String, LogicTopicConfig> topics = new LinkedHashMap<>();
    private final Path configFile;

    private LocalPlatform(RocketMqStack stack) {
        this.stack = stack;
        this.configFile = stack.directory().resolve("platform.yaml");
    }

    /** Starts name server and broker child processes for two IDCs; takes several seconds. */
    public static LocalPlatform start() {
        return new LocalPlatform(RocketMqStack.start(StackSpec.dualIdc()));
    }

    /**
     * Creates the physical topic on both clusters and declares the logic topic with the given weights.
     * Consumer groups start from the earliest offset, so nothing sent before subscribing is missed.
     */
    public synchronized LocalPlatform addTopic(String logicTopic, int queues, int weightA, int weightB, String... groups)
            throws MessagingException {
        String physical = logicTopic.replace('.', '_');
        stack.createTopic(physical, queues);
        Map<String, ConsumerSettings> declared = new LinkedHashMap<>();
        for (String group : groups) {
            declared.put(group, new ConsumerSettings(4, 16, StartPosition.EARLIEST));
        }
        topics.put(logicTopic, new LogicTopicConfig(logicTopic, List.of(
                new TopicRoute(idcA().clusterName(), physical, weightA),
                new TopicRoute(idcB().clusterName(), physical, weightB)), declared));
        writeConfig();
        return this;
    }

    /** A client of this platform, found through the public API as an application would. */
    public MessagingClient client(String applicationName) throws MessagingException {
        return MessagingClient.create(ClientOptions.builder(applicationName).configLocation(configFile.toString()).build());
    }

    public Path configFile() {
        return configFile;
    }

    public RocketMqStack stack() {
        return stack;
    }

    public Idc idcA() {
        return stack.idcs().get(0);
    }

    public Idc idcB() {
        return stack.idcs().get(1);
    }

    private void writeConfig() throws MessagingException {
        PlatformConfig.Builder builder = PlatformConfig.builder();
        for (Idc idc : stack.idcs()) {
            builder.cluster(new ClusterConfig(idc.clusterName(), idc.name(), idc.nameServerAddress(), CLIENT_TUNING));
        }
        topics.values().forEach(builder::topic);
        try {
            Files.writeString(configFile, new PlatformConfigWriter().toYaml(builder.build(configFile.toString())));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + configFile, e);
        }
    }

    @Override
    public void close() {
        stack.close();
    }
}
