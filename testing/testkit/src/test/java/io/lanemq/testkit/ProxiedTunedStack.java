package io.lanemq.testkit;

/**
 * The stack of the ITs that need options the shared one lacks: every broker on the tuned profile, idc-b's behind a
 * {@link LatencyProxy}. One stack for them all, started on first use and killed when the JVM exits, because a broker
 * stack's start is most of what these classes cost; each class keeps to its own IDC (profile checks on idc-a, delays
 * and kills on idc-b) and its own topics and groups.
 */
final class ProxiedTunedStack {
    private static RocketMqStack stack;

    private ProxiedTunedStack() {
    }

    static synchronized RocketMqStack get() {
        if (stack == null) {
            RocketMqStack started = RocketMqStack.start(StackSpec.builder()
                .idc(IdcSpec.of("idc-a", "cluster-a"))
                .idc(IdcSpec.builder("idc-b").clusterName("cluster-b").latencyProxy(true).build())
                .brokerProfile(BrokerProfile.TUNED)
                .build());
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "lanemq-testkit-proxied-tuned-stack-stop"));
            stack = started;
        }
        return stack;
    }
}
