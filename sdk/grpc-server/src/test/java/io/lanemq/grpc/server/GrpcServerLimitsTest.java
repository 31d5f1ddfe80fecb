package io.lanemq.grpc.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class GrpcServerLimitsTest {
    @Test
    void eachBadSettingIsRefusedNamingIt() {
        assertThatThrownBy(() -> GrpcServerLimits.builder().maxConnections(0))
                .hasMessage("GrpcServerLimits.maxConnections must be at least 1, was 0");
        assertThatThrownBy(() -> GrpcServerLimits.builder().handshakeTimeout(Duration.ZERO))
                .hasMessage("GrpcServerLimits.handshakeTimeout must be positive, was PT0S");
        assertThatThrownBy(() -> GrpcServerLimits.builder().keepAlive(Duration.ofSeconds(1), null))
                .hasMessage("GrpcServerLimits.keepAliveTimeout must be positive, was null");
        assertThatThrownBy(() -> GrpcServerLimits.builder().maxInboundMetadataSize(10))
                .hasMessage("GrpcServerLimits.maxInboundMetadataSize must be at least 1024, was 10");
        assertThatThrownBy(() -> GrpcServerLimits.builder().maxConcurrentCallsPerConnection(-1))
                .hasMessageStartingWith("GrpcServerLimits.maxConcurrentCallsPerConnection");
    }

    @Test
    void toBuilderKeepsWhatIsNotChanged() {
        GrpcServerLimits changed = GrpcServerLimits.DEFAULTS.toBuilder().maxConnections(7).build();

        assertThat(changed.maxConnections()).isEqualTo(7);
        assertThat(changed.toBuilder().maxConnections(GrpcServerLimits.DEFAULTS.maxConnections()).build())
                .isEqualTo(GrpcServerLimits.DEFAULTS);
    }

    @Test
    void aFrameHoldsTheLargestBodyPlusHeadroomWithoutOverflowing() {
        assertThat(GrpcServerLimits.maxFrameBytes(4 * 1024 * 1024)).isEqualTo(4 * 1024 * 1024 + 256 * 1024);
        assertThat(GrpcServerLimits.maxFrameBytes(Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
        assertThatThrownBy(() -> GrpcServerLimits.maxFrameBytes(0)).hasMessageContaining("producer.maxBodyBytes");
    }
}
