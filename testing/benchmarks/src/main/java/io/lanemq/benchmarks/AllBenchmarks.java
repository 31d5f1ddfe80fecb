package io.lanemq.benchmarks;

import io.lanemq.benchmarks.broker.BrokerProfileBenchmark;
import io.lanemq.benchmarks.delay.DelayBacklogBenchmark;
import io.lanemq.benchmarks.delay.DelayBenchmark;
import io.lanemq.benchmarks.failover.FailoverBenchmarkMain;
import io.lanemq.benchmarks.failover.IdcFailoverBenchmark;
import io.lanemq.benchmarks.idle.IdleBenchmark;
import io.lanemq.benchmarks.produce.GatheringBenchmark;
import io.lanemq.benchmarks.produce.ProduceBenchmark;
import io.lanemq.benchmarks.proxy.ProxyBenchmark;
import io.lanemq.benchmarks.reload.ReloadBenchmark;
import io.lanemq.benchmarks.startup.StartDuringOutageBenchmark;
import io.lanemq.benchmarks.transit.TransitBenchmark;
import io.lanemq.benchmarks.report.BenchReport;
import io.lanemq.benchmarks.report.BenchSuite;
import io.lanemq.benchmarks.report.BenchSuite.Entry;
import io.lanemq.benchmarks.report.BenchSuite.Mode;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Every benchmark in sequence, one table of their figures, the same as CSV and as a PNG chart. A missed target is
 * reported, not an error (exit 0); a benchmark that crashed is an error row and makes the exit status 1.
 */
@Command(name = "all", mixinStandardHelpOptions = true,
        description = "Runs every benchmark in sequence (quick: a few minutes; full: each benchmark's defaults), prints one "
                + "table of figure, baseline, ratio, target, CPU-ms per message and pass/miss, and writes it as CSV and PNG. "
                + "Exits 0 when every benchmark ran (missed targets included), 1 when one crashed.")
public final class AllBenchmarks implements Callable<Integer> {

    /**
     * The suite, in the order of the targets table. A new benchmark is one entry: its subcommand name, its target
     * ids, and its arguments for the quick and the full mode (full: its own defaults).
     */
    static List<Entry> entries() {
        return List.of(
                Entry.command("transit", "T1", TransitBenchmark::new,
                        List.of("--seconds", "10", "--min-warmup-seconds", "30", "--max-warmup-seconds", "90", "--idle-seconds", "10"),
                        List.of()),
                Entry.command("produce", "P1", ProduceBenchmark::new,
                        List.of("--warmup-seconds", "3", "--rounds", "2", "--round-seconds", "5"), List.of()),
                Entry.command("produce-batch", "P2", GatheringBenchmark::new,
                        List.of("--warmup-seconds", "2", "--rounds", "2", "--round-seconds", "4"), List.of()),
                Entry.command("proxy", "P3", ProxyBenchmark::new,
                        List.of("--backlog", "20000", "--warmup", "10000", "--latency-seconds", "5"), List.of()),
                Entry.command("delay", "P4", DelayBenchmark::new,
                        List.of("--seconds", "10", "--max-delay-ms", "3000"), List.of()),
                Entry.command("delay-backlog", "P4", DelayBacklogBenchmark::new,
                        List.of("--pending", "200000", "--burst", "20000", "--sync-seconds", "5"), List.of()),
                Entry.command("idc-failover", "P5", IdcFailoverBenchmark::new, List.of("--rate", "1000"), List.of()),
                Entry.command("startup", "P5", StartDuringOutageBenchmark::new, List.of("--fault-seconds", "6"), List.of()),
                Entry.command("reload", "P6", ReloadBenchmark::new, List.of("--changes", "20"), List.of()),
                Entry.command("broker-profile", "P7", BrokerProfileBenchmark::new, List.of("--quick"), List.of()),
                Entry.command("idle", "P8", IdleBenchmark::new,
                        List.of("--settle-seconds", "10", "--window-seconds", "15"), List.of()),
                Entry.command("failover", "FO", FailoverBenchmarkMain::new, List.of(), List.of()));
    }

    @Spec
    CommandSpec spec;

    @ArgGroup(exclusive = true)
    ModeOption mode = new ModeOption();

    static final class ModeOption {
        @Option(names = "--quick", description = "A few minutes in all: shorter rounds, smaller backlogs (the default).")
        boolean quick;

        @Option(names = "--full", description = "Every benchmark with its own defaults (the delay backlog holds 10 M: long).")
        boolean full;
    }

    @Option(names = "--out", defaultValue = "target/bench",
            description = "Directory of bench.csv and bench.png (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--only", split = ",", paramLabel = "NAME", completionCandidates = Names.class,
            description = "Run only these benchmarks (of: ${COMPLETION-CANDIDATES}).")
    Set<String> only;

    /** The suite's benchmark names, for --only's help. */
    static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return entries().stream().map(Entry::name).iterator();
        }
    }

    @Override
    public Integer call() throws Exception {
        List<Entry> chosen = entries().stream().filter(e -> only == null || only.contains(e.name())).toList();
        if (only != null && chosen.size() != only.size()) {
            throw new ParameterException(spec.commandLine(), "unknown benchmark in --only " + only + "; known: "
                    + entries().stream().map(Entry::name).toList());
        }
        BenchReport report = new BenchReport(new BenchSuite(chosen, System.out).run(mode != null && mode.full ? Mode.FULL : Mode.QUICK));
        System.out.println();
        report.printTable(System.out);
        Path csv = out.resolve("bench.csv");
        Path png = out.resolve("bench.png");
        report.writeCsv(csv);
        report.writePng(png);
        System.out.printf("written: %s, %s%n", csv.toAbsolutePath(), png.toAbsolutePath());
        return report.hasErrors() ? 1 : 0;
    }
}
