package io.lanemq.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LogThrottleTest {
    private final FakeClock clock = new FakeClock();

    @Test
    void theFirstEventIsLoggedThenOneLinePerIntervalCarryingTheCount() {
        LogThrottle throttle = LogThrottle.every(Duration.ofMinutes(1), clock);

        assertThat(throttle.event()).as("the first event is always reported").isEqualTo(1);
        assertThat(throttle.event()).isZero();
        assertThat(throttle.event()).isZero();
        clock.advance(Duration.ofSeconds(59));
        assertThat(throttle.event()).as("still within the interval").isZero();
        clock.advance(Duration.ofSeconds(1));
        assertThat(throttle.event()).as("the three skipped and this one").isEqualTo(4);
        assertThat(throttle.event()).isZero();
    }

    @Test
    void eachKeyIsThrottledApart() {
        LogThrottle throttle = LogThrottle.every(Duration.ofSeconds(10), clock);

        assertThat(throttle.event("accept")).isEqualTo(1);
        assertThat(throttle.event("accept")).isZero();
        assertThat(throttle.event("io")).as("another key has its own window").isEqualTo(1);
        clock.advance(Duration.ofSeconds(10));
        assertThat(throttle.event("accept")).as("the skipped one and this one").isEqualTo(2);
        assertThat(throttle.event("io")).as("only this one: none was skipped").isEqualTo(1);
    }
}
