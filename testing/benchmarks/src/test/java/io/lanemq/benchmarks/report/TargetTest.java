package io.lanemq.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class TargetTest {

    @Test
    void atLeastIsMetOnTheThresholdAndAbove() {
        Target target = Target.ratioAtLeast(0.95);

        assertThat(target.isMetBy(0.95)).as("the threshold itself meets it").isTrue();
        assertThat(target.isMetBy(1.2)).isTrue();
        assertThat(target.isMetBy(0.949)).isFalse();
        assertThat(target.isMetBy(Double.NaN)).as("no number is no pass").isFalse();
    }

    @Test
    void atMostIsMetOnTheThresholdAndBelow() {
        Target target = Target.atMost(3000, "ms");

        assertThat(target.isMetBy(3000)).isTrue();
        assertThat(target.isMetBy(900)).isTrue();
        assertThat(target.isMetBy(3001)).isFalse();
    }

    @Test
    void attainmentIsOneOnTheTargetAndHigherWhenBetterInBothDirections() {
        assertThat(Target.ratioAtLeast(2.0).attainment(1.0)).as("half of what is asked").isCloseTo(0.5, within(1e-9));
        assertThat(Target.atMost(10, "ms").attainment(20)).as("twice what is allowed").isCloseTo(0.5, within(1e-9));
        assertThat(Target.atMost(10, "ms").attainment(5)).as("half of what is allowed").isCloseTo(2.0, within(1e-9));
        assertThat(Target.atMost(5, "%").attainment(5)).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void attainmentIsCappedSoOneFigureDoesNotFlattenTheChart() {
        assertThat(Target.ratioAtLeast(1.0).attainment(20)).isEqualTo(Target.ATTAINMENT_CAP);
        assertThat(Target.atMost(3000, "ms").attainment(0)).as("nothing at all against an upper bound").isEqualTo(Target.ATTAINMENT_CAP);
    }

    @Test
    void aZeroTargetIsOnTheLineWhenMetAndAtZeroWhenMissed() {
        Target none = Target.atMost(0, "messages");

        assertThat(none.attainment(0)).isEqualTo(1.0);
        assertThat(none.attainment(3)).isEqualTo(0.0);
    }

    @Test
    void printsAsTheTargetsTableWritesIt() {
        assertThat(Target.ratioAtLeast(0.95)).hasToString("ratio >= 0.95");
        assertThat(Target.atMost(3000, "ms")).hasToString("<= 3,000 ms");
        assertThat(Target.atMost(5, "% of a core")).hasToString("<= 5 % of a core");
    }

    @Test
    void rejectsANegativeOrNonFiniteThreshold() {
        assertThatThrownBy(() -> Target.atMost(-1, "ms")).hasMessageContaining("threshold");
        assertThatThrownBy(() -> Target.ratioAtLeast(Double.POSITIVE_INFINITY)).hasMessageContaining("threshold");
    }
}
