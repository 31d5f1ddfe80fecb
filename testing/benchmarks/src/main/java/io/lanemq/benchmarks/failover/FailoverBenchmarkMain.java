package io.lanemq.benchmarks.failover;

import io.lanemq.benchmarks.report.Figure;
import io.lanemq.benchmarks.report.FigureBenchmark;
import io.lanemq.benchmarks.report.Targets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import picocli.CommandLine.Command;

/**
 * Runs {@link FailoverBenchmark} and prints, per resource count and thread count, our ops/s,
 * simple-failover's ops/s and the ratio ours/anchor (target: >= 1.0).
 *
 * <p>Usage: {@code java -jar testing/benchmarks/target/benchmarks.jar failover}
 */
@Command(name = "failover", mixinStandardHelpOptions = true,
        description = "Failover library vs simple-failover: get+success ops/s with 2, 5 and 100 callees, 1 and 2 threads (target ratio >= 1.0).")
public final class FailoverBenchmarkMain implements FigureBenchmark {

    /** One figure: the worst ratio over every resource and thread count, the others in its note. */
    @Override
    public List<Figure> measure() throws RunnerException {
        Options options = new OptionsBuilder()
                .include(FailoverBenchmark.class.getName() + "\\.")
                .build();
        Collection<RunResult> results = new Runner(options).run();

        // key: "<resources> <threads>", value: {ours, anchor}
        Map<String, double[]> table = new TreeMap<>((a, b) -> {
            String[] x = a.split(" ");
            String[] y = b.split(" ");
            int byResources = Integer.compare(Integer.parseInt(x[0]), Integer.parseInt(y[0]));
            return byResources != 0 ? byResources : Integer.compare(Integer.parseInt(x[1]), Integer.parseInt(y[1]));
        });
        for (RunResult result : results) {
            String method = result.getParams().getBenchmark();
            method = method.substring(method.lastIndexOf('.') + 1);
            boolean ours = method.startsWith("ours");
            String threads = method.substring(method.indexOf("Threads") + "Threads".length());
            String key = result.getParams().getParam("resources") + " " + threads;
            table.computeIfAbsent(key, k -> new double[2])[ours ? 0 : 1] = result.getPrimaryResult().getScore();
        }

        System.out.println();
        System.out.println("Failover get+success: ours (io.lanemq.failover.WeightedFailover) vs anchor "
                + "(simple-failover WeightFailover)");
        System.out.printf(Locale.ROOT, "%-10s %-8s %16s %16s %8s%n", "resources", "threads", "ours ops/s",
                "anchor ops/s", "ratio");
        List<String> ratios = new ArrayList<>();
        table.forEach((key, scores) -> {
            String[] parts = key.split(" ");
            System.out.printf(Locale.ROOT, "%-10s %-8s %16.0f %16.0f %8.2f%n", parts[0], parts[1], scores[0],
                    scores[1], scores[0] / scores[1]);
            ratios.add(String.format(Locale.ROOT, "%s callees %s threads %.2f", parts[0], parts[1], scores[0] / scores[1]));
        });
        Map.Entry<String, double[]> worst = table.entrySet().stream()
                .min(Comparator.comparingDouble(e -> e.getValue()[0] / e.getValue()[1]))
                .orElseThrow(() -> new IllegalStateException("JMH returned no results"));
        String[] parts = worst.getKey().split(" ");
        return List.of(Figure.of("FO", String.format("failover library vs simple-failover, pick+success, worst: %s callees, %s threads",
                        parts[0], parts[1]))
                .measured(worst.getValue()[0], "ops/s").baseline(worst.getValue()[1]).target(Targets.FAILOVER_VS_ANCHOR)
                .note(String.join("; ", ratios)).build());
    }
}
