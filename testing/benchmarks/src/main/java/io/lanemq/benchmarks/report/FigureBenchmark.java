package io.lanemq.benchmarks.report;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * A benchmark that returns its figures, so {@code all} (and {@code bin/bench}) can run it among the others and put
 * its rows in one table. A benchmark is a picocli command: {@code all} sets its options (its quick or full mode) by
 * parsing arguments onto a fresh instance, then calls {@link #measure()}; its {@link #call()} does the same for a run
 * of that benchmark alone.
 */
@FunctionalInterface
public interface FigureBenchmark extends Callable<Integer> {

    /**
     * Runs the benchmark with the options set on this instance, printing its progress and its {@code RESULT} line as
     * it goes, and returns its figures (a missed target is a figure, not an exception).
     *
     * @throws Exception when the benchmark could not run to the end; {@code all} reports it as an error row
     */
    List<Figure> measure() throws Exception;

    /** This benchmark run alone, as its own command: its figures as a table; exit status 1 when a target was missed. */
    @Override
    default Integer call() throws Exception {
        return BenchReport.standalone(this);
    }
}
