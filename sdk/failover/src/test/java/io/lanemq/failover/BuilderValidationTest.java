package io.lanemq.failover;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BuilderValidationTest {

    private static WeightedFailover.Builder<String> builder() {
        return WeightedFailover.builder();
    }

    @Test
    void weightSettingsAreCheckedWhenSet() {
        assertThatThrownBy(() -> builder().failureFactor(1.0)).hasMessageContaining("failureFactor");
        assertThatThrownBy(() -> builder().failureFactor(-0.1)).hasMessageContaining("failureFactor");
        assertThatThrownBy(() -> builder().successIncrementRatio(0)).hasMessageContaining("successIncrementRatio");
        assertThatThrownBy(() -> builder().successIncrementRatio(Double.NaN)).hasMessageContaining("successIncrementRatio");
        assertThatThrownBy(() -> builder().downThresholdRatio(0)).hasMessageContaining("downThresholdRatio");
        assertThatThrownBy(() -> builder().recoveryRatio(1.5)).hasMessageContaining("recoveryRatio");
        assertThatThrownBy(() -> builder().priorityFactor(0)).hasMessageContaining("priorityFactor");
        assertThatThrownBy(() -> builder().probeInterval(Duration.ZERO)).hasMessageContaining("probeInterval");
        assertThatThrownBy(() -> builder().name(" ")).hasMessageContaining("name");
        assertThatThrownBy(() -> builder().ticker(null)).hasMessageContaining("ticker");
    }

    @Test
    void conflictingSettingsAreRejectedByBuild() {
        assertThatThrownBy(() -> builder().downThresholdRatio(0.2).recoveryRatio(0.1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("recoveryRatio")
                .hasMessageContaining("downThresholdRatio");
    }

    @Test
    void calleesAreCheckedWhenAdded() {
        assertThatThrownBy(() -> builder().callee("a", 100).callee("a", 50))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a was already added");
        assertThatThrownBy(() -> builder().callee(null, 100)).hasMessageContaining("callee");
    }

    @Test
    void weightSpecNamesTheBadWeight() {
        assertThatThrownBy(() -> WeightSpec.of(-1)).hasMessageContaining("maxWeight");
        assertThatThrownBy(() -> WeightSpec.of(Double.POSITIVE_INFINITY)).hasMessageContaining("maxWeight");
        assertThatThrownBy(() -> WeightSpec.of(100).withMinWeight(101)).hasMessageContaining("minWeight");
        assertThatThrownBy(() -> WeightSpec.of(100).withMinWeight(10).withInitialWeight(5))
                .hasMessageContaining("initialWeight");
    }

    @Test
    void latencyPolicyNamesTheBadSetting() {
        assertThatThrownBy(() -> LatencyPolicy.custom().halfLife(Duration.ZERO)).hasMessageContaining("halfLife");
        assertThatThrownBy(() -> LatencyPolicy.custom().slowRatio(0.9)).hasMessageContaining("slowRatio");
        assertThatThrownBy(() -> LatencyPolicy.custom().slowMargin(Duration.ofMillis(-1)))
                .hasMessageContaining("slowMargin");
        assertThatThrownBy(() -> LatencyPolicy.custom().refreshInterval(Duration.ofNanos(-5)))
                .hasMessageContaining("refreshInterval");
        assertThatThrownBy(() -> LatencyPolicy.custom().baseline(null)).hasMessageContaining("baseline");
    }
}
