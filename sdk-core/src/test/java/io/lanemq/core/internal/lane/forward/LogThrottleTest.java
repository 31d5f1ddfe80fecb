package io.lanemq.core.internal.lane.forward;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LogThrottleTest {
    @Test
    void theFirstEventIsLoggedThenOneLinePerIntervalCarryingTheCount() {
        AtomicLong nanos = new AtomicLong(1_000);
        LogThrottle throttle = new LogThrottle(1, TimeUnit.MINUTES, nanos::get);

        assertThat(throttle.event()).isEqualTo(1);
        assertThat(throttle.event()).isZero();
        assertThat(throttle.event()).isZero();
        nanos.addAndGet(TimeUnit.SECONDS.toNanos(59));
        assertThat(throttle.event()).isZero();
        nanos.addAndGet(TimeUnit.SECONDS.toNanos(1));
        assertThat(throttle.event()).as("the three skipped and this one").isEqualTo(4);
        assertThat(throttle.event()).isZero();
    }
}
