package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ramp's step logic on synthetic per-step reports: no brokers, no time. */
class StressRampTest {

    private static final StressOptions CONFIG = StressOptions.builder().startRate(200).step(200).maxRate(1000)
        .stepDuration(Duration.ofSeconds(30)).p99Limit(Duration.ofMillis(500)).build();

    @Test
    void raisesTheRateStepByStepAndStopsAtTheFirstStepWhereLatencyBreaks() {
        StressRamp ramp = new StressRamp(CONFIG);
        assertThat(ramp.currentRate()).isEqualTo(200);
        assertThat(ramp.onStep(step(6000, 0, 0, 3_000, 40_000))).hasValue(400);
        assertThat(ramp.onStep(step(12000, 0, 0, 4_000, 120_000))).hasValue(600);
        assertThat(ramp.onStep(step(18000, 0, 0, 90_000, 1_240_000))).isEmpty();
        assertThat(ramp.finished()).isTrue();
        assertThat(ramp.onStep(step(100, 0, 0, 1_000, 1_000))).as("reports after the end are ignored").isEmpty();

        assertThat(ramp.steps()).extracting(StressStep::rate).containsExactly(200.0, 400.0, 600.0);
        assertThat(ramp.highestClean()).get().extracting(StressStep::rate).isEqualTo(400.0);
        assertThat(ramp.breaking()).get().extracting(StressStep::breaches).isEqualTo(List.of("p99 1,240 ms > 500 ms"));
        assertThat(LiveTable.stress(ramp))
            .contains("STRESS: highest clean rate 400/s per broker per kind achieved (400/s asked); at 600/s p99 1,240 ms > 500 ms");
    }

    @Test
    void lossAndSendFailuresBreakAStepAndAreAllNamed() {
        StressRamp ramp = new StressRamp(CONFIG);
        ramp.onStep(step(6000, 0, 0, 3_000, 40_000));
        assertThat(ramp.onStep(step(12000, 3, 7, 3_000, 40_000))).isEmpty();
        assertThat(ramp.breaking()).get().extracting(StressStep::breaches)
            .isEqualTo(List.of("3 probes lost", "7 send failures"));
        assertThat(LiveTable.stress(ramp))
            .contains("STRESS: highest clean rate 200/s per broker per kind achieved (200/s asked); at 400/s 3 probes lost, 7 send failures");
    }

    @Test
    void aFirstStepThatBreaksLeavesNoCleanRate() {
        StressRamp ramp = new StressRamp(CONFIG);
        assertThat(ramp.onStep(step(6000, 1, 0, 3_000, 40_000))).isEmpty();
        assertThat(ramp.highestClean()).isEmpty();
        assertThat(LiveTable.stress(ramp)).contains("STRESS: no clean rate; at 200/s 1 probe lost");
    }

    @Test
    void aStepThatSentNothingIsNotClean() {
        StressRamp ramp = new StressRamp(CONFIG);
        assertThat(ramp.onStep(new Report(0, Duration.ofSeconds(30), List.of(), 0, 0))).isEmpty();
        assertThat(ramp.breaking()).get().extracting(StressStep::breaches).isEqualTo(List.of("nothing sent"));
    }

    @Test
    void endsAfterTheMaximumWhenNothingBreaksAndCapsTheLastStep() {
        StressRamp ramp = new StressRamp(StressOptions.builder().startRate(20).step(20).maxRate(50).build());
        assertThat(ramp.onStep(step(600, 0, 0, 1_000, 2_000))).hasValue(40);
        assertThat(ramp.onStep(step(1200, 0, 0, 1_000, 2_000))).hasValue(50);
        assertThat(ramp.onStep(step(1500, 0, 0, 1_000, 2_000))).isEmpty();
        assertThat(ramp.breaking()).isEmpty();
        assertThat(ramp.highestClean()).get().extracting(StressStep::rate).isEqualTo(50.0);
        assertThat(LiveTable.stress(ramp)).contains(
            "STRESS: highest clean rate 50/s per broker per kind achieved (50/s asked); nothing broke up to the maximum, 50/s");
    }

    @Test
    void theStepLatencyIsTheWorstLanes() {
        StressRamp ramp = new StressRamp(CONFIG);
        Report report = new Report(0, Duration.ofSeconds(30), List.of(
            lane("broker-a", 6000, 0, 0, 2_000, 600_000),
            lane("broker-b", 6000, 0, 0, 5_000, 20_000)), 0, 0);
        ramp.onStep(report);
        StressStep step = ramp.steps().get(0);
        assertThat(step.counts().sent()).isEqualTo(12000);
        assertThat(step.p50Micros()).isEqualTo(5_000);
        assertThat(step.p99Micros()).isEqualTo(600_000);
        assertThat(step.breaches()).containsExactly("p99 600 ms > 500 ms");
    }

    @Test
    void aStepWhoseSendersFellBehindIsNotCleanAndTheRateReachedIsReported() {
        StressRamp ramp = new StressRamp(CONFIG);
        // 200/s for 30 s on one lane expects 6,000 sends; 5,700 (95 %) is enough, with failures counting as sent.
        assertThat(ramp.onStep(step(5_700, 0, 0, 3_000, 40_000, 0))).hasValue(400);
        assertThat(ramp.onStep(step(11_000, 0, 0, 3_000, 40_000, 1_000))).as("11,000 of 12,000: 92 %").isEmpty();

        assertThat(ramp.breaking()).get().extracting(StressStep::breaches)
            .isEqualTo(List.of("sent 11,000 of 12,000 expected (92%), 1,000 dropped"));
        assertThat(ramp.steps().get(1).achieved()).isCloseTo(366.7, within(0.1));
        assertThat(LiveTable.stress(ramp)).contains(
            "STRESS: highest clean rate 190/s per broker per kind achieved (200/s asked); at 400/s sent 11,000 of 12,000 "
                + "expected (92%), 1,000 dropped");
    }

    @Test
    void sendFailuresCountAsSentForTheRateButBreakTheStepOnTheirOwn() {
        StressRamp ramp = new StressRamp(CONFIG);
        ramp.onStep(step(5_000, 0, 1_000, 3_000, 40_000));
        assertThat(ramp.steps().get(0).achieved()).isEqualTo(200);
        assertThat(ramp.breaking()).get().extracting(StressStep::breaches).isEqualTo(List.of("1000 send failures"));
    }

    @Test
    void everySettingIsCheckedWithItsNameInTheMessage() {
        assertThatThrownBy(() -> StressOptions.builder().startRate(0)).hasMessageStartingWith("stressStart");
        assertThatThrownBy(() -> StressOptions.builder().step(-1)).hasMessageStartingWith("stressStep");
        assertThatThrownBy(() -> StressOptions.builder().maxRate(1e9)).hasMessageStartingWith("stressMax");
        assertThatThrownBy(() -> StressOptions.builder().stepDuration(Duration.ZERO))
            .hasMessageStartingWith("stressStepDuration");
        assertThatThrownBy(() -> StressOptions.builder().p99Limit(Duration.ZERO)).hasMessageStartingWith("stressP99Limit");
        assertThatThrownBy(() -> StressOptions.builder().startRate(100).maxRate(50).build())
            .hasMessageStartingWith("stressMax");
    }

    private static Report step(long sent, long lost, long failures, long p50Micros, long p99Micros) {
        return step(sent, lost, failures, p50Micros, p99Micros, 0);
    }

    /** One lane, one 30 s step. */
    private static Report step(long sent, long lost, long failures, long p50Micros, long p99Micros, long dropped) {
        return new Report(0, Duration.ofSeconds(30), List.of(lane("broker-a", sent, lost, failures, p50Micros, p99Micros,
            dropped)), 0, 0);
    }

    private static LaneReport lane(String broker, long sent, long lost, long failures, long p50Micros, long p99Micros) {
        return lane(broker, sent, lost, failures, p50Micros, p99Micros, 0);
    }

    private static LaneReport lane(String broker, long sent, long lost, long failures, long p50Micros, long p99Micros,
                                   long dropped) {
        LaneCounts counts = new LaneCounts(sent, failures, sent - lost, lost, 0, 0, dropped);
        return new LaneReport(new LaneKey("cluster-a", broker, ProbeKind.NORMAL), counts,
            new LatencySummary(sent - lost, p50Micros, p99Micros, p99Micros));
    }
}
