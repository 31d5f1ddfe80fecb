package io.lanemq.benchmarks.cpu;

import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * CPU time spent by this JVM and by every process it started (the local stack's name servers and brokers run as
 * child JVMs), read from the operating system. A benchmark on a shared few-core machine is often bound by CPU,
 * not by any one component: the CPU a path spends per message tells how fast it could go, and which part costs.
 */
public final class CpuMeter {

    /** CPU used up to an instant. */
    public record Reading(long wallNanos, long ownCpuNanos, long childCpuNanos) {

        /** What was spent between {@code earlier} and this reading. */
        public Usage since(Reading earlier) {
            return new Usage(wallNanos - earlier.wallNanos, ownCpuNanos - earlier.ownCpuNanos,
                    childCpuNanos - earlier.childCpuNanos);
        }
    }

    /** CPU spent over a stretch of wall time. */
    public record Usage(long wallNanos, long ownCpuNanos, long childCpuNanos) {

        /** CPU time of this JVM and its child processes together. */
        public long cpuNanos() {
            return ownCpuNanos + childCpuNanos;
        }

        /** Cores busy on average: CPU time over wall time. */
        public double cores() {
            return wallNanos == 0 ? 0 : (double) cpuNanos() / wallNanos;
        }

        /** CPU milliseconds per thousand messages, this JVM and its child processes apart. */
        public String perThousand(long messages) {
            if (messages <= 0) {
                return "no messages";
            }
            return String.format("%.0f CPU-ms per 1,000 messages (this JVM %.0f, brokers and name servers %.0f), %.2f cores busy",
                    cpuNanos() / 1e3 / messages, ownCpuNanos / 1e3 / messages,
                    childCpuNanos / 1e3 / messages, cores());
        }
    }

    private CpuMeter() {
    }

    public static Reading read() {
        long own = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
        long children = ProcessHandle.current().descendants()
                .mapToLong(p -> p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L))
                .sum();
        return new Reading(System.nanoTime(), own, children);
    }
}
