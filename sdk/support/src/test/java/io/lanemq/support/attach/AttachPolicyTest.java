package io.lanemq.support.attach;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class AttachPolicyTest {

    @Test
    void quicklyFailingAttemptsOnASilentClusterAreRetriedWithinASecondJitteredHoweverLongTheOutage() {
        Duration min = Duration.ofDays(1);
        Duration max = Duration.ZERO;
        for (int failures = 1; failures <= 200; failures++) {
            Duration delay = AttachPolicy.QUICKLY_FAILING.unreachable().delay(failures);
            if (failures >= 3) { // at the cap from the third failure on
                min = delay.compareTo(min) < 0 ? delay : min;
                max = delay.compareTo(max) > 0 ? delay : max;
            }
            assertThat(delay).as("delay after %d failures", failures)
                    .isGreaterThanOrEqualTo(Duration.ofMillis(125)).isLessThanOrEqualTo(Duration.ofSeconds(1));
        }
        assertThat(max).as("jittered: the delays at the cap differ, so clients that lost a cluster together do not "
                + "come back in lockstep").isGreaterThan(min);
        // With an attempt failing within a second while silent, a heal is followed by a successful attempt's start
        // within the failing attempt and one delay: the 5 s attach bound keeps its margin for the attach itself.
        assertThat(AttachPolicy.QUICKLY_FAILING.attemptsPerSecond()).isEqualTo(AttachPolicy.DEFAULT.attemptsPerSecond());
    }
}
