package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.metrics.PrometheusServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A 16 s dial test of a real dual-IDC stack, scraped by a real Prometheus (Debian's binary) while it runs: every
 * broker and every kind reconciled with no loss and no duplicate, and every dashboard panel's query answered with
 * data through Prometheus's HTTP API.
 */
@Execution(ExecutionMode.CONCURRENT) // probes the module's shared stack for a fixed time: see junit-platform.properties
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DialTestRunIT {

    private static final Duration RUN = Duration.ofSeconds(16);

    private RocketMqStack stack;
    private EmbeddedPlatform platform;
    private final ItSupport.Reports reports = new ItSupport.Reports();
    private Report totals;
    private String prometheusMissing;
    private final Map<String, JsonNode> panelResults = new LinkedHashMap<>();
    private String prometheusLog = "";

    @BeforeAll
    void run() throws Exception {
        stack = ItSupport.sharedStack();
        DialTestOptions.Builder config = ItSupport.config();
        for (Idc idc : stack.idcs()) {
            config.nameServer(idc.name(), idc.nameServerAddress());
        }
        platform = EmbeddedPlatform.on(stack, config.build().probeTopic());
        config.logicTopic(platform.configLocation(), EmbeddedPlatform.LOGIC_TOPIC, EmbeddedPlatform.LOGIC_GROUP)
            .configProbeKey(EmbeddedPlatform.CONFIG_PROBE_KEY);
        Optional<Path> prometheusBinary = PrometheusServer.binary();
        try (DialTestRun test = DialTestRun.runner(config.build()).onReport(reports).configPublisher(platform).start()) {
            long started = System.nanoTime();
            if (prometheusBinary.isEmpty()) {
                prometheusMissing = "the prometheus binary is not installed (bin/setup-tools installs Debian's "
                    + "prometheus): the dashboard queries were NOT checked against a real Prometheus";
                await().atMost(RUN.plusSeconds(10)).until(() -> System.nanoTime() - started > RUN.toNanos());
            } else {
                String target = test.metricsUri().orElseThrow().getAuthority();
                try (PrometheusServer prometheus = PrometheusServer.start(prometheusBinary.get(), target)) {
                    await().atMost(Duration.ofSeconds(20)).until(prometheus::targetUp);
                    await().atMost(RUN.plusSeconds(10)).until(() -> System.nanoTime() - started > RUN.toNanos());
                    for (Dashboards.PanelQuery query : Dashboards.panelQueries()) {
                        panelResults.put(query.panel() + ": " + query.expr(),
                            prometheus.query(Dashboards.resolveVariables(query.expr())));
                    }
                    prometheusLog = prometheus.log();
                }
            }
            totals = test.stop();
            System.out.print(LiveTable.summary(totals, 1.0));
        }
    }

    @AfterAll
    void stopPlatform() {
        if (platform != null) {
            platform.close(); // the stack is the module's shared one
        }
    }

    @Test
    void everyBrokerAndKindIsReconciledWithoutLossOrDuplicates() {
        assertThat(totals.lanes().stream().filter(l -> l.key().kind().perBroker()))
            .hasSize(stack.idcs().size() * ProbeKind.brokerKinds().size());
        for (Idc idc : stack.idcs()) {
            for (ProbeKind kind : ProbeKind.brokerKinds()) {
                LaneReport lane = totals.lane(idc.clusterName(), idc.brokers().get(0).brokerName(), kind).orElseThrow();
                LaneCounts c = lane.counts();
                assertThat(c.sent()).as("%s sent", lane.key()).isGreaterThan(RUN.toSeconds() * 20 * 8 / 10);
                assertThat(c.sendFailures()).as("%s send failures", lane.key()).isZero();
                assertThat(c.lost()).as("%s lost", lane.key()).isZero();
                assertThat(c.duplicated()).as("%s duplicated", lane.key()).isZero();
                assertThat(c.late()).as("%s late", lane.key()).isZero();
                assertThat(c.acked()).as("%s acked = sent", lane.key()).isEqualTo(c.sent());
                assertThat(lane.latency().count()).isEqualTo(c.acked());
                assertThat(lane.latency().p50Micros()).as("%s p50", lane.key()).isPositive();
                assertThat(lane.latency().p99Micros()).isGreaterThanOrEqualTo(lane.latency().p50Micros());
                assertThat(lane.latency().maxMicros()).isGreaterThanOrEqualTo(lane.latency().p99Micros());
            }
        }
        assertThat(totals.pending()).isZero();
        assertThat(totals.rejectedAcks()).isZero();
        assertThat(reports.size()).isGreaterThanOrEqualTo((int) (RUN.toSeconds() / 2) - 1);
    }

    @Test
    void theLogicTopicProbesGoThroughTheSdkToBothIdcsAsTheWeightsSayAndArriveAll() {
        long logicSent = 0;
        for (Idc idc : stack.idcs()) {
            LaneReport lane = totals.lane(idc.clusterName(), EmbeddedPlatform.LOGIC_TOPIC, ProbeKind.LOGIC_TOPIC)
                .orElseThrow(() -> new AssertionError("no logic-topic row of " + idc.clusterName() + ": " + totals.lanes()));
            LaneCounts c = lane.counts();
            // Not 0 duplicates: a send the SDK timed out on one cluster and stored on the other is delivered twice (at
            // least once, by design), which a stall of this shared machine causes.
            assertThat(c.lost()).as("%s lost", lane.key()).isZero();
            assertThat(c.acked()).as("%s acked = sent", lane.key()).isEqualTo(c.sent());
            assertThat(lane.latency().count()).isEqualTo(c.acked());
            logicSent += c.sent();
        }
        assertThat(logicSent).as("logic-topic probes sent").isGreaterThan(RUN.toSeconds() * 20 * 8 / 10);
        assertThat(totals.lane(LogicTopicProber.UNROUTED, EmbeddedPlatform.LOGIC_TOPIC, ProbeKind.LOGIC_TOPIC)
            .orElseThrow().counts().sendFailures()).as("probes no cluster stored").isZero();
        assertThat(totals.weights()).as("the weights in force").isEqualTo(Map.of(stack.idcs().get(0).clusterName(), 50,
            stack.idcs().get(1).clusterName(), 50));
        // The routing follows the weights and moves shares off a slow or failing cluster (a stall of this machine moved
        // 20 points in a 16 s run): both clusters take a fair part, not exactly half.
        totals.logicTopicSplit().forEach((cluster, share) ->
            assertThat(share).as("share of the logic-topic probes %s stored", cluster).isBetween(0.15, 0.85));
    }

    @Test
    void everyConfigurationChangeTheDialTestPublishedReachedItsClient() {
        LaneReport lane = totals.lane(ConfigPropagationProber.CLUSTER, "file", ProbeKind.CONFIG_PROPAGATION).orElseThrow();
        LaneCounts c = lane.counts();
        // One change per 2 s period over the run.
        assertThat(c.sent()).as("changes published").isGreaterThanOrEqualTo(RUN.toSeconds() / 2 - 2);
        assertThat(c.sendFailures()).as("publish failures").isZero();
        assertThat(c.lost()).as("changes not applied within the grace").isZero();
        assertThat(c.acked()).as("changes applied").isEqualTo(c.sent());
    }

    @Test
    void everyDashboardPanelQueryReturnsDataFromARealPrometheus() {
        Dashboards.requireTool(prometheusMissing == null, prometheusMissing);
        List<String> queries = Dashboards.panelQueries().stream().map(Dashboards.PanelQuery::expr).toList();
        assertThat(panelResults).hasSize(queries.size());
        panelResults.forEach((query, result) -> assertThat(result.size())
            .as("series returned for %s%nPrometheus log:%n%s", query, prometheusLog).isPositive());
    }
}
