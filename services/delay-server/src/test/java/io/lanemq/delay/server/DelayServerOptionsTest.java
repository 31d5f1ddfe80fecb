package io.lanemq.delay.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DelayServerOptionsTest {

    private final DelayServerOptions.Builder builder = DelayServerOptions.builder("file:/etc/lanemq/platform.yaml",
            Path.of("/var/lib/lanemq/delay"));

    @Test
    void defaults() {
        DelayServerOptions s = builder.build();
        assertThat(s.reenqueueAfter()).isEqualTo(Duration.ofMinutes(10));
        assertThat(s.commitInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(s.metricsPort()).isEqualTo(9406);
        assertThat(s.bindAddress()).isEqualTo("127.0.0.1");
        assertThat(s.checkpointInterval()).isEqualTo(Duration.ofMinutes(5));
        assertThat(builder.checkpointInterval(Duration.ZERO).build().checkpointInterval()).as("off").isZero();
    }

    @Test
    void eachBadSettingIsNamed() {
        assertThatThrownBy(() -> DelayServerOptions.builder(" ", Path.of("x")))
                .hasMessageContaining("configLocation");
        assertThatThrownBy(() -> builder.metricsPort(70_000)).hasMessageContaining("metricsPort");
        assertThatThrownBy(() -> builder.reenqueueAfter(Duration.ofMillis(10))).hasMessageContaining("reenqueueAfter");
        assertThatThrownBy(() -> builder.commitInterval(Duration.ZERO)).hasMessageContaining("commitInterval");
        assertThatThrownBy(() -> builder.checkpointInterval(Duration.ofMillis(500)))
                .hasMessageContaining("checkpointInterval");
        assertThatThrownBy(() -> builder.checkpointInterval(Duration.ofHours(2))).hasMessageContaining("checkpointInterval");
        assertThatThrownBy(() -> builder.reenqueueAfter(Duration.ofSeconds(2)).commitInterval(Duration.ofSeconds(5)).build())
                .hasMessageContaining("commitInterval").hasMessageContaining("reenqueueAfter");
    }
}
