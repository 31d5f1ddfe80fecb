package io.lanemq.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {
    @Test
    void doublesFromTheInitialDelayUpToTheMaximum() {
        Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(2), () -> 1.0);

        assertThat(backoff.delay(1)).isEqualTo(Duration.ofMillis(100));
        assertThat(backoff.delay(2)).isEqualTo(Duration.ofMillis(200));
        assertThat(backoff.delay(5)).isEqualTo(Duration.ofMillis(1600));
        assertThat(backoff.delay(6)).isEqualTo(Duration.ofSeconds(2));
        assertThat(backoff.delay(Integer.MAX_VALUE)).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void jitterKeepsEachDelayInTheUpperHalfOfItsStep() {
        assertThat(new Backoff(Duration.ofMillis(100), Duration.ofSeconds(2), () -> 0.0).delay(3)).isEqualTo(Duration.ofMillis(200));
        assertThat(new Backoff(Duration.ofMillis(100), Duration.ofSeconds(2), () -> 0.5).delay(3)).isEqualTo(Duration.ofMillis(300));
    }

    @Test
    void rejectsAMaximumBelowTheInitialDelay() {
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(3), Duration.ofSeconds(1), () -> 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("max");
        assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1), () -> 0))
                .hasMessageContaining("initial delay must be positive");
    }

    @Test
    void exactGivesTheStepsThemselves() {
        Backoff backoff = Backoff.exact(Duration.ofMillis(100), Duration.ofSeconds(1));

        assertThat(java.util.stream.IntStream.rangeClosed(1, 6).mapToObj(backoff::delay).map(Duration::toMillis))
                .containsExactly(100L, 200L, 400L, 800L, 1000L, 1000L);
    }
}
