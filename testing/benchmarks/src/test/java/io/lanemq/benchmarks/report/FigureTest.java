package io.lanemq.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.lanemq.benchmarks.cpu.CpuMeter;
import org.junit.jupiter.api.Test;

class FigureTest {

    @Test
    void aRatioTargetJudgesMeasuredOverBaseline() {
        Figure met = Figure.of("P1", "sdk vs raw").measured(9_600, "msgs/s").baseline(10_000)
                .target(Targets.P1_SDK_VS_RAW_SYNC).build();
        Figure missed = Figure.of("P1", "sdk vs raw").measured(9_400, "msgs/s").baseline(10_000)
                .target(Targets.P1_SDK_VS_RAW_SYNC).build();

        assertThat(met.ratio()).isCloseTo(0.96, within(1e-9));
        assertThat(met.outcome()).isEqualTo(Figure.Outcome.PASS);
        assertThat(missed.outcome()).as("0.94 < 0.95").isEqualTo(Figure.Outcome.MISS);
    }

    @Test
    void aValueTargetJudgesTheMeasuredValueWhateverTheBaseline() {
        Figure figure = Figure.of("P4", "delivery error p99").measured(12, "ms").baseline(40)
                .target(Targets.P4_DELIVERY_ERROR_P99_MS).build();

        assertThat(figure.ratio()).as("reported beside it").isCloseTo(0.3, within(1e-9));
        assertThat(figure.outcome()).as("12 ms > 10 ms, however much better than the baseline").isEqualTo(Figure.Outcome.MISS);
    }

    @Test
    void aRatioTargetWithoutABaselineIsAMiss() {
        Figure figure = Figure.of("P1", "sdk vs raw").measured(9_600, "msgs/s").target(Targets.P1_SDK_VS_RAW_SYNC).build();

        assertThat(figure.ratio()).isNull();
        assertThat(figure.outcome()).isEqualTo(Figure.Outcome.MISS);
    }

    @Test
    void aFigureWithoutATargetIsOnlyReported() {
        Figure figure = Figure.of("P3", "throughput").measured(20_000, "msgs/s").baseline(40_000).build();

        assertThat(figure.outcome()).isEqualTo(Figure.Outcome.REPORTED);
        assertThat(figure.judged()).isNaN();
    }

    @Test
    void anUnmetRequirementMakesAMissAndSaysWhy() {
        Figure figure = Figure.of("P4", "delivery error p99").measured(4, "ms").target(Targets.P4_DELIVERY_ERROR_P99_MS)
                .require(false, "990 of 1000 arrived").note("p50 2 ms").build();

        assertThat(figure.outcome()).as("the number alone would pass").isEqualTo(Figure.Outcome.MISS);
        assertThat(figure.note()).isEqualTo("990 of 1000 arrived; p50 2 ms");
    }

    @Test
    void aFigureWithoutAVerdictShowsItsTargetButNeitherPassesNorMisses() {
        Figure small = Figure.of("P4", "heap").measured(90, "MB").target(Targets.P4_BACKLOG_HEAP_MB)
                .withoutVerdict("200,000 pending, the target is for 10,000,000").note("ledger 30 B per record").build();
        Figure broken = Figure.of("P4", "heap").measured(90, "MB").target(Targets.P4_BACKLOG_HEAP_MB)
                .withoutVerdict("smaller backlog").require(false, "3 sends failed").build();

        assertThat(small.outcome()).as("90 MB would pass, on a fiftieth of the load").isEqualTo(Figure.Outcome.REPORTED);
        assertThat(small.target()).isEqualTo(Targets.P4_BACKLOG_HEAP_MB);
        assertThat(small.note()).isEqualTo("no verdict: 200,000 pending, the target is for 10,000,000; ledger 30 B per record");
        assertThat(broken.outcome()).as("an unmet requirement still fails").isEqualTo(Figure.Outcome.MISS);
        assertThat(broken.note()).isEqualTo("3 sends failed; no verdict: smaller backlog");
    }

    @Test
    void theDeliveryErrorTargetIsTenMillisecondsOrTransitPlusFive() {
        assertThat(Targets.p4DeliveryErrorP99(2).threshold()).isEqualTo(10);
        assertThat(Targets.p4DeliveryErrorP99(27).threshold()).isEqualTo(32);
        assertThat(Targets.p4DeliveryErrorP99(27)).hasToString("<= 32 ms");
    }

    @Test
    void cpuPerMessageIsEveryJvmsCpuOverTheMessagesAndAbsentWithoutMessages() {
        CpuMeter.Usage usage = new CpuMeter.Usage(1_000_000_000L, 300_000_000L, 200_000_000L);

        assertThat(Figure.of("P1", "x").measured(1, "").cpu(usage, 10_000).build().cpuMsPerMessage())
                .as("500 ms of CPU over 10,000 messages").isCloseTo(0.05, within(1e-12));
        assertThat(Figure.of("P8", "idle").measured(1, "").cpu(usage, 0).build().cpuMsPerMessage()).isNull();
    }

    @Test
    void anErrorRowCarriesTheMessageOnOneLine() {
        Figure figure = Figure.error("P5", "idc-failover crashed", new IllegalStateException("broker\nnot started"));

        assertThat(figure.outcome()).isEqualTo(Figure.Outcome.ERROR);
        assertThat(figure.note()).isEqualTo("IllegalStateException: broker not started");
        assertThat(figure.measured()).isNaN();
    }

    @Test
    void rejectsABlankIdOrName() {
        assertThatThrownBy(() -> Figure.of(" ", "x").build()).hasMessageContaining("id");
        assertThatThrownBy(() -> Figure.of("P1", "").build()).hasMessageContaining("name");
    }
}
