package io.lanemq.benchmarks.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProcessCpuTest {

    @Test
    void whatWasSpentIsPerThreadDeltasHighestFirstWithNewThreadsCountedWhole() {
        ProcessCpu before = new ProcessCpu("broker", 1_000, Map.of(
                1L, new ProcessCpu.ThreadCpu("netty", 100),
                2L, new ProcessCpu.ThreadCpu("flush", 500),
                3L, new ProcessCpu.ThreadCpu("ended", 50)));
        ProcessCpu after = new ProcessCpu("broker", 1_900, Map.of(
                1L, new ProcessCpu.ThreadCpu("netty", 400),
                2L, new ProcessCpu.ThreadCpu("flush", 500),
                4L, new ProcessCpu.ThreadCpu("started", 200)));

        ProcessCpu.Spent spent = after.since(before, 9_000);

        assertThat(spent.cpuNanos()).isEqualTo(900);
        assertThat(spent.percentOfCore()).isEqualTo(10.0);
        assertThat(spent.threads()).as("idle threads left out, highest first")
                .containsExactly(new ProcessCpu.ThreadCpu("netty", 300), new ProcessCpu.ThreadCpu("started", 200));
    }

    @Test
    void threadsOfOneKindAddUpAsAFamily() {
        ProcessCpu.Spent spent = new ProcessCpu.Spent("this JVM", 1_000, 10_000, List.of(
                new ProcessCpu.ThreadCpu("lanemq-proxy-ticker", 300),
                new ProcessCpu.ThreadCpu("Client_192.0.2.2@lanemq-cluster-a-14511-3_GuardForSyncSend", 200),
                new ProcessCpu.ThreadCpu("Client_192.0.2.2@lanemq-delay-3d4e7faf-cluster-b-producer_GuardForSyncSend", 200),
                new ProcessCpu.ThreadCpu("NettyClientWorkerThread_1", 50),
                new ProcessCpu.ThreadCpu("NettyClientWorkerThread_12", 50)));

        assertThat(spent.families()).containsExactly(
                new ProcessCpu.ThreadFamily("Client_*@*_GuardForSyncSend", 2, 400),
                new ProcessCpu.ThreadFamily("lanemq-proxy-ticker", 1, 300),
                new ProcessCpu.ThreadFamily("NettyClientWorkerThread_#", 2, 100));
        assertThat(ProcessCpu.family("lanemq-delay-3d4e7faf-maintenance-1")).isEqualTo("lanemq-delay-*-maintenance-#");
    }

    @Test
    void aBusyThreadOfThisJvmShowsUnderItsJavaName() {
        ProcessCpu before = ProcessCpu.self("this JVM");
        // Spins until the thread has had 100 ms of CPU, however loaded the machine is.
        long spinUntil = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() + 100_000_000L;
        long sum = 0;
        while (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() < spinUntil) {
            sum += System.nanoTime() % 7;
        }

        ProcessCpu.Spent spent = ProcessCpu.self("this JVM").since(before, 1_000_000_000L);

        assertThat(sum).isPositive();
        assertThat(spent.threads()).as("the test's own thread spun for 100 ms of CPU")
                .anySatisfy(t -> {
                    assertThat(t.name()).isEqualTo(Thread.currentThread().getName());
                    assertThat(t.cpuNanos()).isGreaterThanOrEqualTo(100_000_000L);
                });
    }

    @Test
    void anotherProcessIsReadFromTheOperatingSystemWithItsThreads() {
        boolean proc = Files.isDirectory(Path.of("/proc/self/task"));
        if ("true".equals(System.getenv("CI"))) {
            assertThat(proc).as("Linux /proc, which CI's machines have: a CI run never skips this").isTrue();
        }
        assumeThat(proc).as("Linux /proc").isTrue();
        // This JVM read as another process would be: the kernel's thread names, cut to 15 characters.
        ProcessCpu process = ProcessCpu.of("as a child", ProcessHandle.current().pid());

        assertThat(process.cpuNanos()).isPositive();
        assertThat(process.threads().values()).extracting(ProcessCpu.ThreadCpu::name)
                .as("HotSpot names its native threads").contains("VM Thread").allSatisfy(n -> assertThat(n.length()).isLessThanOrEqualTo(15));
    }
}
