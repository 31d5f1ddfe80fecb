package io.lanemq.benchmarks.failover;

import com.github.phantomthief.failover.impl.WeightFailover;
import io.lanemq.failover.Lease;
import io.lanemq.failover.WeightedFailover;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One pick plus one success report, ours against simple-failover's {@code WeightFailover} (the
 * Kuaishou component {@code failover/} replaces), on 2, 5 and 100 equally weighted resources,
 * from 1 and 2 threads sharing one instance.
 *
 * <p>Ours runs with its defaults, latency tracking included (a clock read and an average update
 * per success), so the ratio prices the extra feature in. Method names end in the thread count;
 * {@link FailoverBenchmarkMain} pairs them up and prints ratios.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class FailoverBenchmark {

    /** A plausible broker round trip; all resources report the same, so none is slow. */
    private static final long LATENCY_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final int WEIGHT = 100;

    @Param({"2", "5", "100"})
    public int resources;

    private WeightedFailover<String> ours;
    private WeightFailover<String> anchor;

    @Setup
    public void setUp() {
        List<String> names = new ArrayList<>();
        WeightedFailover.Builder<String> builder = WeightedFailover.<String>builder().name("benchmark");
        for (int i = 0; i < resources; i++) {
            String name = "broker-" + i;
            names.add(name);
            builder.callee(name, WEIGHT);
        }
        ours = builder.build();
        anchor = WeightFailover.<String>newGenericBuilder().checker(resource -> true).build(names, WEIGHT);
    }

    @TearDown
    public void tearDown() {
        ours.close();
        anchor.close();
    }

    @Benchmark
    @Threads(1)
    public String oursThreads1() {
        return oursPickAndSucceed();
    }

    @Benchmark
    @Threads(2)
    public String oursThreads2() {
        return oursPickAndSucceed();
    }

    @Benchmark
    @Threads(1)
    public String anchorThreads1() {
        return anchorPickAndSucceed();
    }

    @Benchmark
    @Threads(2)
    public String anchorThreads2() {
        return anchorPickAndSucceed();
    }

    private String oursPickAndSucceed() {
        Lease<String> lease = ours.pick().orElseThrow();
        lease.onSuccessNanos(LATENCY_NANOS);
        return lease.callee();
    }

    private String anchorPickAndSucceed() {
        String resource = anchor.getOneAvailable();
        anchor.success(resource);
        return resource;
    }
}
