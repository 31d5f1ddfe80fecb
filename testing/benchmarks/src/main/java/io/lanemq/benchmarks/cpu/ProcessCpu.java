package io.lanemq.benchmarks.cpu;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The CPU time of one process and of each of its threads at an instant: this JVM through {@link ThreadMXBean} (its
 * threads under their Java names), a child process through the operating system ({@link ProcessHandle} for the total,
 * {@code /proc/<pid>/task} for its threads, under the names the kernel keeps: a JVM's thread names cut to 15
 * characters). Two readings give what a process spent over a window and which threads spent it, which is where an
 * idle stack's CPU goes.
 *
 * @param threads by thread id; empty where the operating system does not show them (no {@code /proc})
 */
public record ProcessCpu(String process, long cpuNanos, Map<Long, ThreadCpu> threads) {

    /** Linux reports thread times in clock ticks of USER_HZ, which is 100 on every architecture a JVM runs on. */
    private static final long NANOS_PER_TICK = 10_000_000L;

    public record ThreadCpu(String name, long cpuNanos) {
    }

    /** Threads of one kind (one pool, or one per client instance) and the CPU they spent together. */
    public record ThreadFamily(String name, int threads, long cpuNanos) {
    }

    /** What a process spent over a window, its threads sorted by CPU, highest first. */
    public record Spent(String process, long cpuNanos, long wallNanos, List<ThreadCpu> threads) {

        /** Percent of one core over the window. */
        public double percentOfCore() {
            return wallNanos == 0 ? 0 : 100.0 * cpuNanos / wallNanos;
        }

        /** Percent of one core a thread's CPU is over this window. */
        public double percentOfCore(ThreadCpu thread) {
            return percentOfCore(thread.cpuNanos());
        }

        public double percentOfCore(long nanos) {
            return wallNanos == 0 ? 0 : 100.0 * nanos / wallNanos;
        }

        /**
         * The threads grouped by {@link #family(String)}, highest CPU first: an idle process's CPU is often spread
         * over many threads of one kind (one per client instance, one per pool member), none of which stands out.
         */
        public List<ThreadFamily> families() {
            Map<String, long[]> byFamily = new HashMap<>();
            for (ThreadCpu thread : threads) {
                long[] sum = byFamily.computeIfAbsent(family(thread.name()), k -> new long[2]);
                sum[0]++;
                sum[1] += thread.cpuNanos();
            }
            List<ThreadFamily> families = new ArrayList<>();
            byFamily.forEach((name, sum) -> families.add(new ThreadFamily(name, (int) sum[0], sum[1])));
            families.sort(Comparator.comparingLong(ThreadFamily::cpuNanos).reversed());
            return families;
        }
    }

    /**
     * A thread's name with what tells members of one kind apart folded away: a RocketMQ client instance
     * ({@code Client_192.0.2.2@lanemq-cluster-a-123-4_GuardForSyncSend} is {@code Client_*@*_GuardForSyncSend}),
     * 8-digit hex ids, and numbers ({@code NettyClientWorkerThread_3} is {@code NettyClientWorkerThread_#}).
     */
    static String family(String threadName) {
        return threadName.replaceAll("^Client_[^@]*@.*_", "Client_*@*_")
                .replaceAll("(?<![0-9a-fA-F])[0-9a-f]{8}(?![0-9a-fA-F])", "*")
                .replaceAll("[0-9]+", "#");
    }

    public ProcessCpu {
        threads = Map.copyOf(threads);
    }

    /** This JVM, with every live thread's CPU time. */
    public static ProcessCpu self(String label) {
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        Map<Long, ThreadCpu> threads = new HashMap<>();
        for (ThreadInfo info : bean.getThreadInfo(bean.getAllThreadIds())) {
            if (info == null) {
                continue; // ended since the ids were read
            }
            long nanos = bean.getThreadCpuTime(info.getThreadId());
            if (nanos >= 0) {
                threads.put(info.getThreadId(), new ThreadCpu(info.getThreadName(), nanos));
            }
        }
        long total = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
        return new ProcessCpu(label, total, threads);
    }

    /** Another process (a child JVM of the stack) by its id; zero CPU if it is gone. */
    public static ProcessCpu of(String label, long pid) {
        long total = ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration()).map(Duration::toNanos).orElse(0L);
        return new ProcessCpu(label, total, procThreads(pid));
    }

    /**
     * What was spent since {@code earlier} (a reading of the same process). A thread that started meanwhile counts
     * whole; one that ended meanwhile is in the process's total but in no thread's line.
     */
    public Spent since(ProcessCpu earlier, long wallNanos) {
        List<ThreadCpu> spent = new ArrayList<>();
        threads.forEach((id, now) -> {
            ThreadCpu before = earlier.threads.get(id);
            long nanos = now.cpuNanos() - (before == null ? 0 : before.cpuNanos());
            if (nanos > 0) {
                spent.add(new ThreadCpu(now.name(), nanos));
            }
        });
        spent.sort(Comparator.comparingLong(ThreadCpu::cpuNanos).reversed());
        return new Spent(process, cpuNanos - earlier.cpuNanos, wallNanos, spent);
    }

    /** {@code /proc/<pid>/task/<tid>/stat}: the name in parentheses, then user and system ticks as fields 14 and 15. */
    private static Map<Long, ThreadCpu> procThreads(long pid) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        Map<Long, ThreadCpu> threads = new HashMap<>();
        if (!Files.isDirectory(tasks)) {
            return threads;
        }
        try (Stream<Path> list = Files.list(tasks)) {
            for (Path task : (Iterable<Path>) list::iterator) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException e) {
                    continue; // the thread ended between the listing and the read
                }
                int open = stat.indexOf('(');
                int close = stat.lastIndexOf(')');
                // After ") ": field 3 (state) is index 0, so utime (field 14) is index 11 and stime index 12.
                String[] fields = stat.substring(close + 2).split(" ");
                long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                threads.put(Long.parseLong(task.getFileName().toString()),
                        new ThreadCpu(stat.substring(open + 1, close), ticks * NANOS_PER_TICK));
            }
        } catch (IOException e) {
            return Map.of(); // the process ended: its total says what it spent
        }
        return threads;
    }
}
