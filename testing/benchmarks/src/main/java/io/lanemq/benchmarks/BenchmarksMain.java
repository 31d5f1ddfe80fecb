package io.lanemq.benchmarks;

import io.lanemq.benchmarks.broker.BrokerProfileBenchmark;
import io.lanemq.benchmarks.delay.DelayBacklogBenchmark;
import io.lanemq.benchmarks.delay.DelayBenchmark;
import io.lanemq.benchmarks.failover.FailoverBenchmarkMain;
import io.lanemq.benchmarks.failover.IdcFailoverBenchmark;
import io.lanemq.benchmarks.startup.StartDuringOutageBenchmark;
import io.lanemq.benchmarks.idle.IdleBenchmark;
import io.lanemq.benchmarks.produce.GatheringBenchmark;
import io.lanemq.benchmarks.produce.ProduceBenchmark;
import io.lanemq.benchmarks.proxy.ProxyBenchmark;
import io.lanemq.benchmarks.reload.ReloadBenchmark;
import io.lanemq.benchmarks.transit.TransitBenchmark;
import io.lanemq.localstack.LoggingSetup;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of {@code benchmarks.jar}: one subcommand per benchmark. */
@Command(name = "benchmarks", mixinStandardHelpOptions = true,
        description = "LaneMQ benchmarks; each prints its target as a ratio against a baseline measured in the same run.",
        subcommands = {ProduceBenchmark.class, GatheringBenchmark.class, FailoverBenchmarkMain.class, IdcFailoverBenchmark.class,
                StartDuringOutageBenchmark.class, ReloadBenchmark.class, DelayBenchmark.class, DelayBacklogBenchmark.class, ProxyBenchmark.class,
                BrokerProfileBenchmark.class, IdleBenchmark.class, TransitBenchmark.class, AllBenchmarks.class})
public final class BenchmarksMain implements Runnable {
    public static void main(String[] args) {
        LoggingSetup.pinLogback();
        System.exit(new CommandLine(new BenchmarksMain()).execute(args));
    }

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }
}
