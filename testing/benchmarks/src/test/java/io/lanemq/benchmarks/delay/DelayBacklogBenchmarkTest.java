package io.lanemq.benchmarks.delay;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.benchmarks.report.Figure;
import io.lanemq.benchmarks.report.Targets;
import org.junit.jupiter.api.Test;

class DelayBacklogBenchmarkTest {

    @Test
    void theHeapTargetIsJudgedOnlyOnTheBacklogItIsStatedFor() {
        Figure quick = DelayBacklogBenchmark.judgedAtTargetBacklog(200_000,
                Figure.of("P4", "heap").measured(90, "MB").target(Targets.P4_BACKLOG_HEAP_MB)).build();
        Figure full = DelayBacklogBenchmark.judgedAtTargetBacklog(DelayBacklogBenchmark.TARGET_PENDING,
                Figure.of("P4", "heap").measured(311, "MB").target(Targets.P4_BACKLOG_HEAP_MB)).build();
        Figure fullMissed = DelayBacklogBenchmark.judgedAtTargetBacklog(DelayBacklogBenchmark.TARGET_PENDING,
                Figure.of("P4", "restart").measured(41, "s").target(Targets.P4_RESTART_SECONDS)).build();

        assertThat(quick.outcome()).isEqualTo(Figure.Outcome.REPORTED);
        assertThat(quick.note()).isEqualTo("no verdict: 200,000 pending, the target is for 10,000,000");
        assertThat(full.outcome()).isEqualTo(Figure.Outcome.PASS);
        assertThat(fullMissed.outcome()).isEqualTo(Figure.Outcome.MISS);
    }
}
