package io.lanemq.core.internal.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.config.ClusterConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigRef;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A downed cluster may get trial traffic once any of its name servers accepts a connection. */
class NameServerProbeTest {
    @Test
    void aClusterIsHealthyWhenAnyOfItsNameServersAcceptsAndNotWhenNoneDoesOrItIsUnknown() throws Exception {
        int closed;
        try (ServerSocket gone = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = gone.getLocalPort();
        }
        try (ServerSocket nameServer = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            PlatformConfig config = PlatformConfig.builder()
                    .cluster(new ClusterConfig("up", "idc-a", "127.0.0.1:" + closed + ";127.0.0.1:" + nameServer.getLocalPort(),
                            Map.of()))
                    .cluster(new ClusterConfig("down", "idc-b", "127.0.0.1:" + closed, Map.of()))
                    .build();
            NameServerProbe probe = new NameServerProbe(new PlatformConfigRef(config));

            assertThat(probe.isHealthy("up")).as("second name server accepts").isTrue();
            assertThat(probe.isHealthy("down")).isFalse();
            assertThat(probe.isHealthy("removed")).as("a cluster the configuration no longer has").isFalse();
        }
    }
}
