package io.lanemq.rocketmq;

import io.lanemq.api.spi.ClusterEndpoint;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.IdcSpec;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.StackSpec;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Cluster idc-a, as the binding's broker ITs use it: a stack of that one IDC, started on first use and killed when the
 * JVM exits. Not the testkit's shared dual-IDC stack, whose second IDC these ITs never use: on two cores a stack's
 * start is most of what they cost, and it grows with the child JVMs started.
 */
final class FastClusterA {
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static RocketMqStack stack;

    private FastClusterA() {
    }

    static synchronized RocketMqStack stack() {
        if (stack == null) {
            RocketMqStack started = RocketMqStack.start(StackSpec.builder().idc(IdcSpec.of("idc-a", "cluster-a")).build());
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "lanemq-it-cluster-a-stop"));
            stack = started;
        }
        return stack;
    }

    /** Short client intervals, so that a new consumer group gets its queues and routes within about a second. */
    static ClusterEndpoint endpoint() {
        Idc idc = stack().idc("idc-a");
        return new ClusterEndpoint(idc.clusterName(), idc.name(), idc.nameServerAddress(), Map.of(
                "rocketmq.heartbeatBrokerIntervalMs", "1000",
                "rocketmq.pollNameServerIntervalMs", "1000",
                "rocketmq.persistConsumerOffsetIntervalMs", "1000",
                "rocketmq.shutdownAwaitMs", "1000"));
    }

    /** A name no other test of this JVM uses. */
    static String unique(String prefix) {
        return "lanemq_it_" + prefix + "_" + ProcessHandle.current().pid() + "_" + SEQUENCE.incrementAndGet();
    }
}
