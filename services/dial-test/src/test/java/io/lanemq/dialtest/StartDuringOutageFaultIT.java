package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.net.NetworkFaults;
import io.lanemq.testkit.net.NetworkFaults.Direction;
import io.lanemq.testkit.net.NetworkFaults.Fault;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The dial test started while IDC B is silent (its name server and broker drop every packet, both ways, from before
 * the start): it must start (not exit) and serve within 2 s, probe IDC A at once, count IDC B's probes as send failures
 * in its table and meters while B is out, probe B's brokers within 5 s of the heal (the failed attach attempts
 * counted), and lose no probe. Runs in its own network namespace (bin/netns/bin/java), where the rules live, on the
 * module's shared stack ({@link ItSupport#sharedStack()}), whose IDC B it silences before the dial test starts.
 */
class StartDuringOutageFaultIT {
    private static final Duration FAULT = Duration.ofSeconds(6);
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(5);

    @Test
    void aDialTestStartedWhileIdcBIsSilentProbesIdcACountsIdcBAsFailingAndProbesItAfterTheHeal() {
        try (NetworkFaults faults = NetworkFaults.open()) {
            RocketMqStack stack = ItSupport.sharedStack();
            Idc healthy = stack.idc("idc-a");
            Idc victim = stack.idc("idc-b");
            DialTestOptions.Builder config = ItSupport.config().sendTimeout(SEND_TIMEOUT);
            for (Idc idc : stack.idcs()) {
                config.nameServer(idc.name(), idc.nameServerAddress());
            }
            DialTestOptions options = config.build();
            Fault fault = faults.drop("partition of " + victim.name(), victim.ports(), Direction.BOTH);
            boolean healed = false;
            ItSupport.Reports reports = new ItSupport.Reports();
            long begin = System.nanoTime();
            Report totals;
            try (DialTestRun test = DialTestRun.runner(options).onReport(reports).start()) {
                long readyMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin);
                MeterRegistry registry = test.registry();
                // IDC A's consumer may still be waiting for its queues: it is attached when it holds them.
                assertThat(test.unreachedNameServers()).as("name servers not attached while IDC B is silent")
                    .anyMatch(line -> line.startsWith("name server " + victim.name() + ": not attached since"));

                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                    .until(() -> count(registry.find(DialTestMetrics.PROBES_ACKED)
                        .tag(DialTestMetrics.TAG_CLUSTER, healthy.clusterName())) > 0);
                long firstAckMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin);
                assertThat(test.unreachedNameServers()).as("name servers not attached once %s is probed", healthy.name())
                    .singleElement().asString().startsWith("name server " + victim.name() + ": not attached since");
                await().atMost(FAULT.plusSeconds(10)).until(() -> System.nanoTime() - begin >= FAULT.toNanos());
                long unreachedFailures = count(registry.find(DialTestMetrics.SEND_FAILURES)
                    .tag(DialTestMetrics.TAG_CLUSTER, victim.name()).tag(DialTestMetrics.TAG_BROKER, ClusterProber.UNREACHED));
                long unreachable = count(registry.find(SdkMetrics.CONSUMER_ATTACH_ATTEMPTS)
                    .tag(SdkMetrics.TAG_CLUSTER, victim.name()).tag(SdkMetrics.TAG_OUTCOME,
                        SdkMetrics.AttachOutcome.UNREACHABLE.tagValue()));
                fault.heal();
                healed = true;
                long healedAt = System.nanoTime();
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                    .until(() -> test.unreachedNameServers().isEmpty());
                long attachMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - healedAt);
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> count(registry.find(DialTestMetrics.PROBES_ACKED)
                        .tag(DialTestMetrics.TAG_CLUSTER, victim.clusterName())) > 0);
                long victimAckMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - healedAt);
                totals = test.stop();
                System.out.print(LiveTable.summary(totals, 1.0));
                LaneCounts all = totals.total();
                System.out.printf(Locale.ROOT, "Dial test started while %s silent: serving in %d ms, first probe of %s "
                        + "acked %d ms after the start; %d probes of %s counted as send failures and %d failed attach "
                        + "attempts during the %d s outage; %s attached %d ms after the heal, its first probe acked %d ms "
                        + "after it; run totals: sent %d, acked %d, lost %d, duplicated %d, send failures %d, pending %d%n",
                    victim.name(), readyMillis, healthy.name(), firstAckMillis, unreachedFailures, victim.name(),
                    unreachable, FAULT.toSeconds(), victim.name(), attachMillis, victimAckMillis, all.sent(), all.acked(),
                    all.lost(), all.duplicated(), all.sendFailures(), totals.pending());

                assertThat(readyMillis).as("time to SERVING (ms)").isLessThanOrEqualTo(2_000);
                assertThat(firstAckMillis).as("first probe of %s acked after the start (ms)", healthy.name())
                    .isLessThanOrEqualTo(5_000);
                assertThat(unreachedFailures).as("probes of %s counted as send failures while it was out", victim.name())
                    .isPositive();
                assertThat(unreachable).as("failed attach attempts on %s, counted", victim.name()).isPositive();
                assertThat(attachMillis).as("%s attached after the heal (ms)", victim.name()).isLessThanOrEqualTo(5_000);
                assertThat(LiveTable.summary(totals, 1.0)).contains(ClusterProber.UNREACHED);
                for (LaneReport lane : totals.lanes()) {
                    assertThat(lane.counts().lost()).as("%s lost", lane.key()).isZero();
                }
                assertThat(totals.pending()).as("probes still pending after stop()").isZero();
            } finally {
                if (!healed) {
                    fault.heal();
                }
            }
        }
    }

    private static long count(Search search) {
        return (long) search.counters().stream().mapToDouble(Counter::count).sum();
    }
}
