package io.lanemq.benchmarks.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.benchmarks.cpu.CpuMeter;
import org.junit.jupiter.api.Test;

class ProxyBenchmarkTest {

    private static final CpuMeter.Usage CPU = new CpuMeter.Usage(1_000_000_000L, 0, 0);

    @Test
    void everyRowNeedsBothDrainsTheLatencyPhaseAndEverySend() {
        ProxyBenchmark.Drain done = drain(true);
        ProxyBenchmark.Drain stalled = drain(false);

        assertThat(ProxyBenchmark.incomplete(done, done, true, 0)).isEmpty();
        assertThat(ProxyBenchmark.incomplete(done, stalled, true, 0)).isEqualTo("PROXY drain timed out");
        assertThat(ProxyBenchmark.incomplete(stalled, done, false, 3))
                .isEqualTo("DIRECT drain timed out, latency phase incomplete, 3 sends failed");
    }

    @Test
    void aRateRunsToTheEndGivenSoAStallCountsInTheTime() {
        long second = 1_000_000_000L;

        assertThat(ConsumerFleet.perSecond(10_000, 0, 2 * second)).isEqualTo(5_000);
        assertThat(ConsumerFleet.perSecond(10_000, 0, 180 * second)).as("cut at the timeout, not the last receipt")
                .isCloseTo(55.6, org.assertj.core.api.Assertions.within(0.1));
        assertThat(ConsumerFleet.perSecond(10, 5, 5)).isZero();
    }

    private static ProxyBenchmark.Drain drain(boolean complete) {
        return new ProxyBenchmark.Drain(new ConsumerFleet.Mark(0, 0, new long[0]), 1_000, 1_000, complete, CPU);
    }
}
