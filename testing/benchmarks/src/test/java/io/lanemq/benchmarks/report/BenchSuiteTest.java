package io.lanemq.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

class BenchSuiteTest {

    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8);

    @Test
    void aCrashedBenchmarkIsAnErrorRowAndTheOthersStillRun() {
        List<String> ran = new ArrayList<>();
        BenchSuite suite = new BenchSuite(List.of(
                new BenchSuite.Entry("first", "P1", mode -> () -> {
                    ran.add("first");
                    return List.of(figure("P1"));
                }),
                new BenchSuite.Entry("broken", "P5", mode -> () -> {
                    ran.add("broken");
                    throw new IllegalStateException("broker did not start");
                }),
                new BenchSuite.Entry("last", "P8", mode -> () -> {
                    ran.add("last");
                    return List.of(figure("P8"), figure("P8"));
                })), out);

        List<Figure> figures = suite.run(BenchSuite.Mode.QUICK);

        assertThat(ran).containsExactly("first", "broken", "last");
        assertThat(figures).extracting(Figure::id).containsExactly("P1", "P5", "P8", "P8");
        Figure error = figures.get(1);
        assertThat(error.outcome()).isEqualTo(Figure.Outcome.ERROR);
        assertThat(error.name()).isEqualTo("broken crashed");
        assertThat(error.note()).isEqualTo("IllegalStateException: broker did not start");
        assertThat(output.toString(StandardCharsets.UTF_8)).as("the stack trace, for whoever fixes it")
                .contains("java.lang.IllegalStateException: broker did not start", "== 2/3 broken (P5), quick mode ==");
    }

    @Test
    void aBenchmarkThatReturnsNothingIsAnError() {
        List<Figure> figures = new BenchSuite(List.of(new BenchSuite.Entry("silent", "P2", mode -> List::of)), out)
                .run(BenchSuite.Mode.FULL);

        assertThat(figures).singleElement().satisfies(f -> {
            assertThat(f.outcome()).isEqualTo(Figure.Outcome.ERROR);
            assertThat(f.note()).contains("no figures");
        });
    }

    @Command(name = "fake")
    static final class FakeBenchmark implements FigureBenchmark {
        @Option(names = "--seconds", defaultValue = "30")
        int seconds;

        @Override
        public List<Figure> measure() {
            return List.of(Figure.of("P9", "seconds").measured(seconds, "s").build());
        }
    }

    @Test
    void aCommandEntryGetsItsQuickOrFullArgumentsAsOptions() {
        BenchSuite.Entry entry = BenchSuite.Entry.command("fake", "P9", FakeBenchmark::new, List.of("--seconds", "5"), List.of());
        BenchSuite suite = new BenchSuite(List.of(entry), out);

        assertThat(suite.run(BenchSuite.Mode.QUICK)).singleElement().extracting(Figure::measured).isEqualTo(5.0);
        assertThat(suite.run(BenchSuite.Mode.FULL)).as("full: the option's default").singleElement()
                .extracting(Figure::measured).isEqualTo(30.0);
    }

    @Test
    void anUnknownOptionInAnEntryIsThatEntrysError() {
        BenchSuite.Entry entry = BenchSuite.Entry.command("fake", "P9", FakeBenchmark::new, List.of("--no-such-option"), List.of());

        assertThat(new BenchSuite(List.of(entry), out).run(BenchSuite.Mode.QUICK)).singleElement()
                .satisfies(f -> assertThat(f.note()).contains("--no-such-option"));
    }

    private static Figure figure(String id) {
        return Figure.of(id, "a figure").measured(1, "ms").target(Target.atMost(2, "ms")).build();
    }
}
