package io.lanemq.core.internal.produce;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.TopicRoute;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopicRateLimitsTest {
    private static LogicTopicConfig topic(int perSecond) {
        return new LogicTopicConfig("t", List.of(new TopicRoute("a", "t", 1)), Map.of(), perSecond);
    }

    @Test
    void unlimitedTopicNeverWaits() {
        TopicRateLimits limits = new TopicRateLimits();
        for (int i = 0; i < 10_000; i++) {
            assertThat(limits.reserve(topic(0), Duration.ZERO)).isEqualTo(TopicRateLimits.NOW);
        }
    }

    @Test
    void sendsBeyondTheLimitWaitForTheNextPeriodOrAreRefused() {
        TopicRateLimits limits = new TopicRateLimits();
        int granted = 0;
        for (int i = 0; i < 20; i++) {
            granted += limits.reserve(topic(10), Duration.ofSeconds(5)) == TopicRateLimits.NOW ? 1 : 0;
        }
        assertThat(granted).as("permits free within the first period").isBetween(10, 20);
        long wait = limits.reserve(topic(10), Duration.ofSeconds(5));
        assertThat(wait).as("the next permit is in a later period").isPositive();
        assertThat(limits.reserve(topic(10), Duration.ofNanos(1))).isEqualTo(TopicRateLimits.REFUSED);
    }

    @Test
    void aReloadedLimitAppliesFromTheNextSecond() {
        TopicRateLimits limits = new TopicRateLimits();
        while (limits.reserve(topic(5), Duration.ofSeconds(5)) == TopicRateLimits.NOW) {
            // drain this period's permits
        }
        long oneSecond = Duration.ofSeconds(1).toNanos();
        int withinASecond = 0;
        for (int i = 0; i < 1_000; i++) {
            long wait = limits.reserve(topic(100_000), Duration.ofSeconds(2));
            withinASecond += wait != TopicRateLimits.REFUSED && wait <= oneSecond ? 1 : 0;
        }
        assertThat(withinASecond).as("at the old 5/s only 5 would start within a second").isEqualTo(1_000);
    }
}
