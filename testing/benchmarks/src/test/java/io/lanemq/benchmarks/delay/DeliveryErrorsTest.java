package io.lanemq.benchmarks.delay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DeliveryErrorsTest {

    @Test
    void anEarlyDeliveryCountsByHowEarlyItCameAndIsCountedApart() {
        DeliveryErrors errors = new DeliveryErrors("delay server");
        errors.startRecording();
        for (int i = 0; i < 99; i++) {
            errors.arrived("m-" + i, 10_000, 10_002);
        }
        errors.arrived("early", 10_000, 9_960);

        assertThat(errors.early()).isEqualTo(1);
        assertThat(errors.percentile(100)).as("40 ms early is 40 ms off, not 0").isEqualTo(40);
        assertThat(errors.percentile(99)).isEqualTo(2);
        assertThat(errors.distinct()).isEqualTo(100);
    }

    @Test
    void aDuplicateIsCountedOnceAndArrivalsBeforeRecordingAreIgnored() {
        DeliveryErrors errors = new DeliveryErrors("delay server");
        errors.arrived("warm-up", 0, 500);
        errors.startRecording();
        errors.arrived("a", 1_000, 1_005);
        errors.arrived("a", 1_000, 1_500);

        assertThat(errors.distinct()).isEqualTo(1);
        assertThat(errors.percentile(100)).isEqualTo(5);
        assertThat(errors.summary(1)).contains("duplicates 1");
    }
}
