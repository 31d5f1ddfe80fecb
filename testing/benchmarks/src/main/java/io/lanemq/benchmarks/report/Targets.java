package io.lanemq.benchmarks.report;

/**
 * The targets table ({@code testing/benchmarks/README.md}, taken from the architecture brief), once, for every benchmark's
 * figures.
 * Where a benchmark judges something the table does not name (the healthy split, the failover library against its
 * anchor), its target is here too, marked as the benchmark's own.
 */
public final class Targets {

    /** T1: paced transit through the SDK, CPU of every JVM above the idle connected stack, per message. */
    public static final Target T1_CPU_MS_PER_MESSAGE = Target.atMost(0.5, "CPU-ms/msg");
    /** T1: the SDK's CPU per message no higher than raw RocketMQ clients' at the same rate. */
    public static final Target T1_SDK_VS_RAW_CPU = Target.ratioAtMost(1.0);
    /** T1: p99 from send to the listener at a paced rate. */
    public static final Target T1_P99_MS = Target.atMost(10, "ms");

    /** P1: SDK sync send vs raw {@code DefaultMQProducer} sync send, 300 B, same threads. */
    public static final Target P1_SDK_VS_RAW_SYNC = Target.ratioAtLeast(0.95);

    /** P2: SDK sync sends with batch gathering vs raw sync sends (8 and 64 threads, 300 B). */
    public static final Target P2_GATHERED_VS_RAW_SYNC = Target.ratioAtLeast(2.0);
    /** P2: the same vs RocketMQ's {@code setAutoBatch} + sync sends. */
    public static final Target P2_GATHERED_VS_AUTO_BATCH_SYNC = Target.ratioAtLeast(1.5);
    /** P2: async with gathering vs raw async + {@code setAutoBatch}. */
    public static final Target P2_GATHERED_ASYNC_VS_AUTO_BATCH_ASYNC = Target.ratioAtLeast(1.0);

    /** P3: CPU per message of the proxy path vs direct consumption (the throughput ratio is reported beside it). */
    public static final Target P3_PROXY_CPU_PER_MESSAGE = Target.ratioAtMost(1.5);
    /** P3: each consumer's share within 25% of the mean. */
    public static final Target P3_SHARE_SPREAD_PERCENT = Target.atMost(25, "%");
    /** P3: p99 end-to-end latency the proxy adds. */
    public static final Target P3_ADDED_P99_MS = Target.atMost(5, "ms");

    /**
     * P4: delay server delivery error p99 at 1,000 msgs/s, absolute (an early delivery counts by how early): the floor
     * of {@link #p4DeliveryErrorP99(double)}, the target when plain transit is quicker than 5 ms at p99.
     */
    public static final Target P4_DELIVERY_ERROR_P99_MS = Target.atMost(10, "ms");
    /** P4: deliveries before their due time (the benchmark's own row; the error p99 above counts them too). */
    public static final Target P4_EARLY_DELIVERIES = Target.atMost(0, "messages");
    /** P4: delay server CPU per message vs plain transit. */
    public static final Target P4_CPU_VS_TRANSIT = Target.ratioAtMost(1.5);
    /** P4: heap with 10 M pending. */
    public static final Target P4_BACKLOG_HEAP_MB = Target.atMost(512, "MB");
    /** P4: restart to ready with 10 M pending. */
    public static final Target P4_RESTART_SECONDS = Target.atMost(30, "s");

    /**
     * P4: delivery error p99 {@code <= max(10 ms, transit p99 + 5 ms)}: a delayed message crosses the broker twice, so
     * its error cannot beat the broker transit measured in the same run; 5 ms is what the delay server may add.
     */
    public static Target p4DeliveryErrorP99(double transitP99Ms) {
        return Target.atMost(Math.max(P4_DELIVERY_ERROR_P99_MS.threshold(), transitP99Ms + 5), "ms");
    }

    /** P5: IDC killed: time until 99% of the sends started succeed again. */
    public static final Target P5_KILL_RECOVERY_MS = Target.atMost(3000, "ms");
    /** P5: a +100 ms slow broker's share of traffic within 10 s. */
    public static final Target P5_SLOW_BROKER_SHARE_PERCENT = Target.atMost(10, "%");
    /** P5, silent partition: seconds from the cut after which every second runs at >= 90% of the healthy rate. */
    public static final Target P5_PARTITION_BACK_SECONDS = Target.atMost(3, "s");
    /** P5, 10% loss on one IDC: sync send rate vs the healthy rate (the benchmark's own). */
    public static final Target P5_LOSS_RATE_VS_HEALTHY = Target.ratioAtLeast(0.9);
    /** P5, healthy: deviation of the 50/50 split (the benchmark's own). */
    public static final Target P5_HEALTHY_SPLIT_PP = Target.atMost(5, "pp");

    /** P5, start-up: an application started while one IDC is out, to its first message consumed on the healthy IDC. */
    public static final Target P5_START_FIRST_CONSUMED_MS = Target.atMost(2000, "ms");
    /** P5, start-up: the out IDC back, to the application's first message consumed there (no restart). */
    public static final Target P5_HEALED_FIRST_CONSUMED_MS = Target.atMost(5000, "ms");

    /** P6: etcd change applied to running clients, p99. */
    public static final Target P6_RELOAD_P99_MS = Target.atMost(1000, "ms");
    /** P6: failed sends while the configuration changes. */
    public static final Target P6_FAILED_SENDS = Target.atMost(0, "sends");

    /** P7: tuned broker profile vs RocketMQ defaults, small-message produce msgs/s per CPU. */
    public static final Target P7_TUNED_VS_DEFAULT_PER_CPU = Target.ratioAtLeast(1.3);

    /** P8: idle, no traffic, the stack alone, in % of one core. */
    public static final Target P8_IDLE_STACK_PERCENT = Target.atMost(5, "% of a core");
    /** P8: idle with SDK clients, the delay server and the proxy connected, in % of one core. */
    public static final Target P8_IDLE_CONNECTED_PERCENT = Target.atMost(10, "% of a core");

    /** R1: acknowledged messages lost when a broker or an IDC is killed. */
    public static final Target R1_LOST_ACKNOWLEDGED = Target.atMost(0, "messages");

    /** The failover library vs simple-failover, pick + success (the benchmark's own). */
    public static final Target FAILOVER_VS_ANCHOR = Target.ratioAtLeast(1.0);

    private Targets() {
    }
}
