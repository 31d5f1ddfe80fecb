package io.lanemq.benchmarks.produce;

import io.lanemq.benchmarks.cpu.CpuMeter;
import java.util.ArrayList;
import java.util.List;

/**
 * One side of a produce comparison over its measured rounds: each round's rate, and the sends and CPU (every JVM of
 * the run, from the operating system) of all its rounds, for its CPU per message.
 */
public final class MeasuredSide {
    private final String name;
    private final List<Double> rates = new ArrayList<>();
    private long sent;
    private long cpuNanos;

    public MeasuredSide(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    /** One round of {@code threads} synchronous senders for {@code seconds}; returns its rate. */
    public double round(SendLoop loop, int threads, int seconds) throws InterruptedException {
        CpuMeter.Reading began = CpuMeter.read();
        return record(Throughput.run(loop, threads, seconds), began);
    }

    /** One round of asynchronous sends, at most {@code inFlight} unanswered, for {@code seconds}; returns its rate. */
    public double round(AsyncSend send, int inFlight, int seconds) throws InterruptedException {
        CpuMeter.Reading began = CpuMeter.read();
        return record(Throughput.runAsync(send, inFlight, seconds), began);
    }

    private double record(Throughput.Run run, CpuMeter.Reading began) {
        cpuNanos += CpuMeter.read().since(began).cpuNanos();
        sent += run.sent();
        rates.add(run.rate());
        return run.rate();
    }

    public double meanRate() {
        return rates.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    }

    public double cpuMsPerMessage() {
        return cpuNanos / 1e6 / sent;
    }
}
