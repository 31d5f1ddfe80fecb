package io.lanemq.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryBackoffTest {
    @Test
    void anExponentialBackOffGrowsByItsMultiplierUpToItsCap() {
        RetryBackoff backoff = RetryBackoff.exponential(Duration.ofSeconds(1), 3.0, Duration.ofSeconds(20));

        assertThat(backoff.delayAfter(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(backoff.delayAfter(2)).isEqualTo(Duration.ofSeconds(3));
        assertThat(backoff.delayAfter(3)).isEqualTo(Duration.ofSeconds(9));
        assertThat(backoff.delayAfter(4)).as("27 s capped").isEqualTo(Duration.ofSeconds(20));
        assertThat(backoff.delayAfter(1_000)).as("no overflow far out").isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void aFixedBackOffIsTheSameEveryTime() {
        RetryBackoff backoff = RetryBackoff.fixed(Duration.ofMillis(1500));

        assertThat(backoff.delayAfter(1)).isEqualTo(backoff.delayAfter(9)).isEqualTo(Duration.ofMillis(1500));
        assertThat(backoff).hasToString("RetryBackoff[fixed PT1.5S]");
    }

    @Test
    void badSettingsAreRefusedNamingTheSetting() {
        assertThatThrownBy(() -> RetryBackoff.fixed(Duration.ZERO)).hasMessageContaining("delay must be positive");
        assertThatThrownBy(() -> RetryBackoff.exponential(Duration.ofSeconds(1), 0.5, Duration.ofSeconds(2)))
                .hasMessageContaining("multiplier must be a finite number >= 1");
        assertThatThrownBy(() -> RetryBackoff.exponential(Duration.ofSeconds(5), 2, Duration.ofSeconds(2)))
                .hasMessageContaining("max (PT2S) must not be below initial (PT5S)");
        assertThatThrownBy(() -> RetryBackoff.fixed(Duration.ofSeconds(1)).delayAfter(0)).hasMessageContaining("failedAttempt");
    }
}
