package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.testkit.BrokerNode;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.IdcSpec;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.StackSpec;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Killing one broker (kill -9) during a run shows send failures or loss on that broker only: the other broker of
 * its cluster and the other cluster's broker stay clean. The broker is started again before the run ends.
 */
@Execution(ExecutionMode.CONCURRENT) // probes a stack of its own for a fixed time: see junit-platform.properties
class BrokerKillIT {

    @Test
    void aKilledBrokerShowsFailuresOrLossOnItsLanesOnly() {
        StackSpec spec = EmbeddedStack.brokers(StackSpec.builder()
            .idc(IdcSpec.builder("idc-a").clusterName("cluster-a").brokers(2).build())
            .idc(IdcSpec.of("idc-b", "cluster-b"))).build();
        try (RocketMqStack stack = RocketMqStack.start(spec)) {
            DialTestOptions.Builder config = ItSupport.config();
            for (Idc idc : stack.idcs()) {
                config.nameServer(idc.name(), idc.nameServerAddress());
            }
            BrokerNode victim = stack.idc("idc-a").broker("idc-a-broker-1");
            ItSupport.Reports reports = new ItSupport.Reports();
            Report totals;
            try (DialTestRun test = DialTestRun.runner(config.build()).onReport(reports).start()) {
                await().atMost(Duration.ofSeconds(30)).until(() -> reports.size() >= 4); // ~8 s of clean probing
                // And the victim itself answered on every kind: a loaded machine can take longer than those reports to
                // get there, and a kill before its first probe would find nothing in flight and nothing to refuse.
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> ProbeKind
                    .brokerKinds().stream().allMatch(kind -> acked(test.registry(), victim.brokerName(), kind) > 0));
                victim.kill();
                int killedAt = reports.size();
                await().atMost(Duration.ofSeconds(30)).until(() -> reports.size() >= killedAt + 4);
                victim.start();
                int restartedAt = reports.size();
                await().atMost(Duration.ofSeconds(30)).until(() -> reports.size() >= restartedAt + 3);
                totals = test.stop();
            }
            System.out.print(LiveTable.summary(totals, 1.0));

            long victimTrouble = 0;
            for (LaneReport lane : totals.lanes()) {
                LaneCounts c = lane.counts();
                if (lane.key().broker().equals(victim.brokerName())) {
                    victimTrouble += c.sendFailures() + c.lost();
                } else {
                    assertThat(c.sent()).as("%s sent", lane.key()).isPositive();
                    assertThat(c.sendFailures()).as("%s send failures", lane.key()).isZero();
                    assertThat(c.lost()).as("%s lost", lane.key()).isZero();
                    assertThat(c.duplicated()).as("%s duplicated", lane.key()).isZero();
                    assertThat(c.acked()).as("%s acked = sent", lane.key()).isEqualTo(c.sent());
                }
            }
            assertThat(totals.lanes()).hasSize(3 * ProbeKind.brokerKinds().size());
            assertThat(victimTrouble).as("send failures + lost probes on the killed broker").isPositive();
        }
    }

    private static double acked(MeterRegistry registry, String broker, ProbeKind kind) {
        return registry.find(DialTestMetrics.PROBES_ACKED).tag(DialTestMetrics.TAG_BROKER, broker)
            .tag(DialTestMetrics.TAG_KIND, kind.label()).counters().stream().mapToDouble(Counter::count).sum();
    }
}
