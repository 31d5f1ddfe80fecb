package io.lanemq.benchmarks.report;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * Runs benchmarks one after the other and collects their figures. A benchmark that throws becomes one row marked
 * {@code error} with its message, and the next one still runs: one broken benchmark must not hide the others' figures.
 */
public final class BenchSuite {

    /** How long the benchmarks run: a few minutes in all, or each with its own defaults. */
    public enum Mode { QUICK, FULL }

    /**
     * One benchmark of the suite.
     *
     * @param name  what it is called on the command line ({@code produce})
     * @param ids   the target ids its figures carry ({@code P1}), for its error row
     * @param setup a benchmark ready to measure in a mode
     */
    public record Entry(String name, String ids, Function<Mode, FigureBenchmark> setup) {

        public Entry {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(ids, "ids");
            Objects.requireNonNull(setup, "setup");
        }

        /** A picocli benchmark whose modes are its own command-line options: {@code quickArgs} or {@code fullArgs}. */
        public static Entry command(String name, String ids, Supplier<? extends FigureBenchmark> factory,
                                    List<String> quickArgs, List<String> fullArgs) {
            List<String> quick = List.copyOf(quickArgs);
            List<String> full = List.copyOf(fullArgs);
            return new Entry(name, ids, mode -> {
                FigureBenchmark benchmark = factory.get();
                new CommandLine(benchmark).parseArgs((mode == Mode.QUICK ? quick : full).toArray(String[]::new));
                return benchmark;
            });
        }
    }

    private final List<Entry> entries;
    private final PrintStream out;

    public BenchSuite(List<Entry> entries, PrintStream out) {
        this.entries = List.copyOf(entries);
        this.out = out;
    }

    public List<Entry> entries() {
        return entries;
    }

    /** Every entry in order; the figures of all of them, an error row for each that crashed. */
    public List<Figure> run(Mode mode) {
        List<Figure> figures = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            Entry entry = entries.get(i);
            out.printf("%n== %d/%d %s (%s), %s mode ==%n", i + 1, entries.size(), entry.name(), entry.ids(),
                    mode.name().toLowerCase(Locale.ROOT));
            long began = System.nanoTime();
            List<Figure> measured;
            try {
                measured = entry.setup().apply(mode).measure();
                if (measured.isEmpty()) {
                    throw new IllegalStateException("the benchmark returned no figures");
                }
            } catch (Exception | LinkageError e) {
                // Handled here: the stack trace once, for whoever fixes the benchmark; the row carries the message.
                e.printStackTrace(out);
                measured = List.of(Figure.error(entry.ids(), entry.name() + " crashed", e));
            }
            figures.addAll(measured);
            out.printf("== %s: %d figure(s) in %.0f s%n", entry.name(), measured.size(), (System.nanoTime() - began) / 1e9);
        }
        return figures;
    }
}
