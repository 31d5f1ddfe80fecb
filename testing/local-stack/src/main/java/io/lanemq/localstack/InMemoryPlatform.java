package io.lanemq.localstack;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.MessagingException;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigWriter;
import io.lanemq.config.StartPosition;
import io.lanemq.config.TopicRoute;
import io.lanemq.core.client.CoreMessagingClient;
import io.lanemq.testkit.memory.MemoryBinding;
import io.lanemq.testkit.memory.MemoryCluster;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The platform of {@code @LaneMqTest(mode = IN_MEMORY)}: two clusters ({@value #CLUSTER_A}, {@value #CLUSTER_B}, one
 * per IDC) of the testkit's in-memory binding instead of RocketMQ, and a platform configuration file that routes every
 * declared logic topic to both, half the sends each. The application's client runs the SDK's own routing, failover,
 * consumption and listeners over it, so a Spring application starts and exchanges messages in milliseconds; a test
 * injects failures through {@link #clusterA()} and {@link #clusterB()} (e.g. {@link MemoryCluster#failSends()}).
 *
 * <p>One per test JVM ({@link #shared()}), for the same reason as the embedded platform: Spring caches contexts across
 * test classes, so the file holds every class's topics. Its binding's threads are daemons and live with the JVM.
 */
public final class InMemoryPlatform {
    public static final String CLUSTER_A = "memory-a";
    public static final String CLUSTER_B = "memory-b";

    private static InMemoryPlatform shared;

    private final MemoryBinding binding = new MemoryBinding();
    private final Path file;
    /** Groups per declared topic; guarded by {@code this}. */
    private final Map<String, Set<String>> topics = new LinkedHashMap<>();

    private InMemoryPlatform(Path file) {
        this.file = file;
    }

    /** The platform of this JVM, created on first use. */
    public static synchronized InMemoryPlatform shared() {
        if (shared == null) {
            try {
                Path directory = Files.createTempDirectory("lanemq-in-memory");
                directory.toFile().deleteOnExit();
                shared = new InMemoryPlatform(directory.resolve("platform.yaml"));
                shared.write();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the in-memory platform's configuration", e);
            }
        }
        return shared;
    }

    /** The binding every client of this platform runs on. */
    public MemoryBinding binding() {
        return binding;
    }

    /** IDC A's cluster, to look at what it stores or to make it fail. */
    public MemoryCluster clusterA() {
        return binding.cluster(CLUSTER_A);
    }

    /** IDC B's cluster. */
    public MemoryCluster clusterB() {
        return binding.cluster(CLUSTER_B);
    }

    /** Where the configuration is, for {@code lanemq.config-location}. */
    public String configLocation() {
        return "file:" + file;
    }

    /**
     * Declares a logic topic on both clusters (physical topics {@code <topic>_a} and {@code <topic>_b}) with its
     * consumer groups, or adds groups to one declared already; running clients follow the file.
     */
    public synchronized InMemoryPlatform declare(String logicTopic, Set<String> groups) {
        Set<String> known = topics.computeIfAbsent(logicTopic, topic -> new LinkedHashSet<>());
        if (known.addAll(groups) || known.isEmpty()) {
            write();
        }
        return this;
    }

    /** A client of application {@code application} on this platform; the caller closes it. */
    public MessagingClient client(String application) throws MessagingException {
        return CoreMessagingClient.start(ClientOptions.builder(application).configLocation(configLocation()).noConfigSnapshots()
                .build(), new SimpleMeterRegistry(), ObservationRegistry.NOOP, binding);
    }

    private void write() {
        PlatformConfig.Builder config = PlatformConfig.builder()
                .cluster(new ClusterConfig(CLUSTER_A, "idc-a", "127.0.0.1:1", Map.of()))
                .cluster(new ClusterConfig(CLUSTER_B, "idc-b", "127.0.0.1:1", Map.of()));
        topics.forEach((topic, groups) -> {
            Map<String, ConsumerConfig> consumers = new LinkedHashMap<>();
            groups.forEach(group -> consumers.put(group, new ConsumerConfig(4, 16, StartPosition.EARLIEST)));
            config.topic(new LogicTopicConfig(topic, List.of(new TopicRoute(CLUSTER_A, topic + "_a", 50),
                    new TopicRoute(CLUSTER_B, topic + "_b", 50)), consumers));
        });
        try {
            Path next = Files.writeString(file.resolveSibling("platform.yaml.next"), new PlatformConfigWriter().toYaml(config.build()));
            Files.move(next, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        } catch (io.lanemq.api.InvalidConfigurationException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
