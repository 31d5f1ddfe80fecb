package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.config.ClusterConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigWriter;
import io.lanemq.support.Clocks;
import io.lanemq.support.FakeClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The proxy reads the clocks it is given, so a test moves its time instead of waiting for it. */
class ProxyClocksTest {
    @TempDir
    Path dir;

    @Test
    void theConfigurationsTimeOfEffectIsReadOnTheInjectedWallClock() throws Exception {
        Path file = dir.resolve("platform.yaml");
        write(file, PlatformConfig.builder().cluster(new ClusterConfig("cluster-a", "idc-a", "127.0.0.1:1", Map.of())));
        FakeClock clock = new FakeClock();
        ProxyServerOptions options = ProxyServerOptions.builder("file:" + file)
                .grpcAddress(new InetSocketAddress("127.0.0.1", 0)).allowPlaintext().token("app", "app-token-1").build();
        try (ConsumerProxyServer proxy = ConsumerProxyServer.start(options, new SimpleMeterRegistry(), Clocks.of(clock))) {
            assertThat(proxy.configuration().lastApplied()).as("applied at start, on the fake clock").isEqualTo(FakeClock.START);

            clock.advance(Duration.ofHours(3));
            write(file, PlatformConfig.builder().cluster(new ClusterConfig("cluster-a", "idc-a", "127.0.0.1:1", Map.of()))
                    .cluster(new ClusterConfig("cluster-b", "idc-b", "127.0.0.1:2", Map.of())));
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(proxy.configuration().lastApplied())
                    .as("a change applied three fake hours later").isEqualTo(FakeClock.START.plus(Duration.ofHours(3))));
        }
    }

    private static void write(Path file, PlatformConfig.Builder config) throws Exception {
        Path next = Files.writeString(file.resolveSibling(file.getFileName() + ".next"), new PlatformConfigWriter().toYaml(config.build()));
        Files.move(next, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
}
