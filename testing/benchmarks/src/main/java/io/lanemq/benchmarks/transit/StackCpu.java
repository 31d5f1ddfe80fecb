package io.lanemq.benchmarks.transit;

import io.lanemq.benchmarks.cpu.ProcessCpu;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * CPU of every JVM of the run (this one, each name server and broker), per thread, all read from the operating system
 * so JIT compiler and GC threads count by name too. Two snapshots give a {@link Window}; a measured window less the
 * idle one (scaled to its length) is what the traffic cost.
 */
final class StackCpu {
    private static final String COMPILER = "CompilerThre";

    private final Map<String, Long> pids;

    StackCpu(Map<String, Long> pids) {
        this.pids = new LinkedHashMap<>(pids);
    }

    Snapshot read() {
        List<ProcessCpu> processes = new ArrayList<>();
        pids.forEach((label, pid) -> processes.add(ProcessCpu.of(label, pid)));
        return new Snapshot(System.nanoTime(), processes);
    }

    record Snapshot(long nanos, List<ProcessCpu> processes) {
        Window since(Snapshot earlier) {
            long wall = nanos - earlier.nanos;
            List<ProcessCpu.Spent> spent = new ArrayList<>();
            for (int i = 0; i < processes.size(); i++) {
                spent.add(processes.get(i).since(earlier.processes.get(i), wall));
            }
            return new Window(wall, spent);
        }
    }

    /** What every JVM spent over one stretch of wall time. */
    record Window(long wallNanos, List<ProcessCpu.Spent> processes) {

        long cpuNanos() {
            return processes.stream().mapToLong(ProcessCpu.Spent::cpuNanos).sum();
        }

        double cores() {
            return (double) cpuNanos() / wallNanos;
        }

        /** Cores the JIT compiler threads of every JVM kept busy: near zero once the code is compiled. */
        double compilerCores() {
            return (double) processes.stream().flatMap(p -> p.threads().stream())
                    .filter(t -> t.name().contains(COMPILER)).mapToLong(ProcessCpu.ThreadCpu::cpuNanos).sum() / wallNanos;
        }

        /** CPU of this window above {@code idle}'s rate, in nanoseconds. */
        long aboveIdleNanos(Window idle) {
            return cpuNanos() - Math.round(idle.cores() * wallNanos);
        }

        /**
         * Per JVM and thread family, CPU-ms per message above the idle rate of the same JVM and family, the families
         * that cost at least {@code floorMs} each, highest first.
         */
        String breakdown(Window idle, long messages, double floorMs) {
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < processes.size(); i++) {
                ProcessCpu.Spent busy = processes.get(i);
                ProcessCpu.Spent quiet = idle.processes.get(i);
                double scale = (double) wallNanos / idle.wallNanos;
                double total = (busy.cpuNanos() - quiet.cpuNanos() * scale) / 1e6 / messages;
                Map<String, Long> quietFamilies = new HashMap<>();
                quiet.families().forEach(f -> quietFamilies.put(f.name(), f.cpuNanos()));
                String families = busy.families().stream()
                        .map(f -> Map.entry(f.name() + (f.threads() > 1 ? " x" + f.threads() : ""),
                                (f.cpuNanos() - quietFamilies.getOrDefault(f.name(), 0L) * scale) / 1e6 / messages))
                        .filter(e -> e.getValue() >= floorMs)
                        .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                        .map(e -> String.format("%s %.3f", e.getKey(), e.getValue()))
                        .collect(Collectors.joining(", "));
                out.append(String.format("      %-16s %6.3f CPU-ms/msg: %s%n", busy.process(), total, families));
            }
            return out.toString();
        }

        /** Cores per JVM, for the idle line. */
        String perProcess() {
            return processes.stream().map(p -> String.format("%s %.1f%%", p.process(), p.percentOfCore()))
                    .collect(Collectors.joining(", "));
        }
    }
}
