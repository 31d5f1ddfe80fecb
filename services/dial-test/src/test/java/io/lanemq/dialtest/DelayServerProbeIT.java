package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.testkit.Idc;
import io.lanemq.testkit.RocketMqStack;
import java.time.Duration;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The delay_server probes against a real stack with a real delay server (the embedded default's): every broker's
 * probes go through its internal delay topic and the delay server, come back through the SDK on the probe topic,
 * and reconcile with no loss and no duplicate, next to the native timer's probes for comparison.
 */
@Execution(ExecutionMode.CONCURRENT) // probes a stack of its own for a fixed time: see junit-platform.properties
class DelayServerProbeIT {

    private static final Duration RUN = Duration.ofSeconds(12);

    @Test
    void delayServerProbesOfEveryBrokerAreReconciledWithoutLoss() throws Exception {
        String probeTopic = "dialtest_it_delay_server_" + Long.toString(System.currentTimeMillis(), 36);
        DialTestOptions.Builder config = ItSupport.config().probeTopic(probeTopic);
        try (RocketMqStack stack = RocketMqStack.start(EmbeddedStack.dualIdc());
             EmbeddedPlatform platform = EmbeddedPlatform.on(stack, probeTopic);
             EmbeddedDelayServer delayServer = EmbeddedDelayServer.start(platform)) {
            for (Idc idc : stack.idcs()) {
                config.nameServer(idc.name(), idc.nameServerAddress());
            }
            config.delayServer(delayServer.target().internalTopic(), delayServer.target().logicTopic())
                .kinds(EnumSet.of(ProbeKind.DELAY_SERVER, ProbeKind.DELAYED));
            Report totals;
            try (DialTestRun test = DialTestRun.runner(config.build()).start()) {
                long started = System.nanoTime();
                await().atMost(RUN.plusSeconds(10)).until(() -> System.nanoTime() - started > RUN.toNanos());
                totals = test.stop();
                System.out.print(LiveTable.summary(totals, 1.0));
            }
            for (Idc idc : stack.idcs()) {
                LaneReport lane = totals.lane(idc.clusterName(), idc.brokers().get(0).brokerName(), ProbeKind.DELAY_SERVER)
                    .orElseThrow();
                LaneCounts c = lane.counts();
                assertThat(c.sent()).as("%s sent", lane.key()).isGreaterThan(RUN.toSeconds() * 20 / 2);
                assertThat(c.sendFailures()).as("%s send failures", lane.key()).isZero();
                assertThat(c.lost()).as("%s lost", lane.key()).isZero();
                assertThat(c.duplicated()).as("%s duplicated", lane.key()).isZero();
                assertThat(c.acked()).as("%s acked = sent", lane.key()).isEqualTo(c.sent());
                assertThat(lane.latency().count()).isEqualTo(c.acked());
            }
            assertThat(totals.pending()).isZero();
        }
    }
}
