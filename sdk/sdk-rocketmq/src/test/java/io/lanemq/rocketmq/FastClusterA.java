package io.lanemq.rocketmq;

import io.lanemq.api.spi.ClusterEndpoint;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.RocketMqStack;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** Cluster idc-a of the testkit's shared stack, as the binding's broker ITs use it. */
final class FastClusterA {
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private FastClusterA() {
    }

    static RocketMqStack stack() {
        return RocketMqStack.shared();
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

    /** A name no other test of this JVM or of another run on the shared stack uses. */
    static String unique(String prefix) {
        return "lanemq_it_" + prefix + "_" + ProcessHandle.current().pid() + "_" + SEQUENCE.incrementAndGet();
    }
}
