package io.lanemq.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigParser;
import io.lanemq.config.PlatformConfigWriter;
import io.lanemq.config.TopicRoute;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.dialtest.DialTestMetrics;
import io.lanemq.service.http.ServiceEndpoints;
import io.lanemq.testkit.etcd.EtcdServer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The console over HTTP against a real etcd: forms validated by the SDK's rules with errors by key beside the field,
 * compare-and-swap publishing, history and rollback, roles refused with 403, CSRF, and the health page reading real
 * Micrometer output of the dial test's and the SDK's meters.
 */
class ConsoleApiIT {
    private static EtcdServer etcd;
    private static ConsoleFixture console;
    private static PrometheusMeterRegistry meters;
    private static ServiceEndpoints metricsEndpoint;

    @BeforeAll
    static void start() throws Exception {
        etcd = EtcdServer.started();
        meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        recordHealth(meters);
        metricsEndpoint = ServiceEndpoints.start("console-it-metrics", new InetSocketAddress("127.0.0.1", 0), meters, null);
        String metrics = metricsEndpoint.metricsUri().toString();
        console = ConsoleFixture.start(etcd, "/lanemq/platform/console-api-it", twoIdcs(),
                "--lanemq.console.dial-test-metrics-url=" + metrics, "--lanemq.console.sdk-metrics-urls=" + metrics);
    }

    @AfterAll
    static void stop() throws Exception {
        if (console != null) {
            console.close();
        }
        if (metricsEndpoint != null) {
            metricsEndpoint.close();
        }
        if (etcd != null) {
            etcd.close();
        }
    }

    static String twoIdcs() throws Exception {
        ConsumerConfig direct = ConsumerConfig.DEFAULTS;
        return new PlatformConfigWriter().toYaml(PlatformConfig.builder()
                .cluster(new ClusterConfig("cluster-a", "idc-a", "127.0.0.1:9876", Map.of()))
                .cluster(new ClusterConfig("cluster-b", "idc-b", "127.0.0.1:9877", Map.of()))
                .topic(new LogicTopicConfig("order-paid", List.of(new TopicRoute("cluster-a", "order_paid", 50),
                        new TopicRoute("cluster-b", "order_paid", 50)), Map.of("billing", direct)))
                .topic(new LogicTopicConfig("refund", List.of(new TopicRoute("cluster-a", "refund", 100),
                        new TopicRoute("cluster-b", "refund", 0)), Map.of("ledger", direct)))
                .build());
    }

    private static ConsoleSession as(String user) throws Exception {
        return ConsoleSession.signIn(console.base(), user, ConsoleFixture.PASSWORD);
    }

    private static String rev() throws Exception {
        return Long.toString(console.revision());
    }

    @Test
    void anInvalidWeightIsRefusedNamingItsKeyBesideTheFieldAndNothingIsPublished() throws Exception {
        String before = console.published();

        HttpResponse<String> response = as("erik").post("/changes/topic", Map.of("name", "order-paid",
                "baseRevision", rev(), "rateLimitPerSecond", "0",
                "routes[0].cluster", "cluster-a", "routes[0].physicalTopic", "order_paid", "routes[0].weight", "-5",
                "routes[1].cluster", "cluster-b", "routes[1].physicalTopic", "order_paid", "routes[1].weight", "50",
                "groups", "billing DIRECT"));

        assertThat(response.statusCode()).isEqualTo(422);
        assertThat(response.body()).as("the validator's key and message, beside the weight field of the first row")
                .containsPattern("data-field=\"routes\\[0\\]\\.weight\"[^>]*>topics\\.order-paid\\.routes\\[0\\]\\.weight: must be &gt;= 0, was -5");
        assertThat(console.published()).isEqualTo(before);
    }

    @Test
    void aPublishFromAnOlderRevisionIsRefusedShowingTheChangeThatCameFirstAndOverwritesNothing() throws Exception {
        ConsoleSession erik = as("erik");
        ConsoleSession olga = as("olga");
        String started = rev();
        String eriksChange = erik.propose("/changes/weights", Map.of("topic", "order-paid", "baseRevision", started,
                "weight.cluster-a", "70", "weight.cluster-b", "30"));
        String olgasChange = olga.propose("/changes/rate-limit", Map.of("topic", "order-paid", "baseRevision", started,
                "perSecond", "900"));
        assertThat(olga.publish(olgasChange, "cap order-paid during the sale").statusCode()).isEqualTo(302);
        String afterOlga = console.published();

        HttpResponse<String> refused = erik.publish(eriksChange, "shift to idc-a");

        assertThat(refused.statusCode()).isEqualTo(409);
        assertThat(refused.body()).contains("Not published").contains("cap order-paid during the sale").contains("olga");
        assertThat(console.published()).as("olga's change stands").isEqualTo(afterOlga).contains("rateLimitPerSecond: 900");
    }

    @Test
    void rollbackPublishesAnEarlierRevisionAgainAsANewRevisionKeepingTheHistory() throws Exception {
        ConsoleSession olga = as("olga");
        olga.publish(olga.propose("/changes/rate-limit", Map.of("topic", "refund", "baseRevision", rev(), "perSecond", "100")),
                "first limit");
        long first = console.revision();
        String firstDocument = console.published();
        olga.publish(olga.propose("/changes/rate-limit", Map.of("topic", "refund", "baseRevision", rev(), "perSecond", "200")),
                "second limit");
        long second = console.revision();

        HttpResponse<String> rolledBack = olga.publish(olga.propose("/history/" + first + "/rollback", Map.of("baseRevision", rev())),
                "the second limit throttled refunds");

        assertThat(rolledBack.statusCode()).isEqualTo(302);
        assertThat(console.revision()).as("a new revision, not a rewrite").isGreaterThan(second);
        assertThat(new PlatformConfigParser().parse(console.published(), "etcd").topic("refund").orElseThrow().rateLimitPerSecond())
                .isEqualTo(new PlatformConfigParser().parse(firstDocument, "first").topic("refund").orElseThrow().rateLimitPerSecond())
                .isEqualTo(100);
        String history = olga.get("/history").body();
        assertThat(history).contains("roll back to revision " + first).contains("the second limit throttled refunds")
                .contains("second limit").contains("first limit");
        assertThat(olga.get("/history/" + console.revision()).body()).as("the entry's diff").contains("-    rateLimitPerSecond: 200")
                .contains("+    rateLimitPerSecond: 100");
    }

    @Test
    void rolesAndOwnershipAreEnforcedWith403AndFormsNeedTheirCsrfToken() throws Exception {
        ConsoleSession vera = as("vera");
        ConsoleSession erik = as("erik");
        String before = console.published();

        assertThat(vera.get("/topics/order-paid").statusCode()).as("a viewer reads").isEqualTo(200);
        assertThat(vera.post("/changes/weights", Map.of("topic", "order-paid", "baseRevision", rev(), "weight.cluster-a", "1"))
                .statusCode()).as("a viewer changes nothing").isEqualTo(403);
        assertThat(erik.post("/changes/weights", Map.of("topic", "refund", "baseRevision", rev(), "weight.cluster-b", "1"))
                .statusCode()).as("an editor changes only their application's topics").isEqualTo(403);
        assertThat(erik.post("/changes/mode", Map.of("topic", "refund", "group", "ledger", "mode", "PROXY", "baseRevision", rev()))
                .statusCode()).as("... and groups").isEqualTo(403);
        assertThat(erik.post("/operations/drain", Map.of("idc", "idc-b", "baseRevision", rev())).statusCode())
                .as("an editor drains no IDC").isEqualTo(403);
        assertThat(erik.post("/history/" + rev() + "/rollback", Map.of("baseRevision", rev())).statusCode())
                .as("an editor rolls nothing back").isEqualTo(403);
        assertThat(erik.postWithoutCsrf("/changes/weights", Map.of("topic", "order-paid", "baseRevision", rev(),
                "weight.cluster-a", "60")).statusCode()).as("a form without its CSRF token").isEqualTo(403);
        assertThat(erik.propose("/changes/weights", Map.of("topic", "order-paid", "baseRevision", rev(), "weight.cluster-a", "60")))
                .as("while erik's own topic takes his change").isNotBlank();
        assertThat(console.published()).isEqualTo(before);
    }

    @Test
    void publishingNeedsAComment() throws Exception {
        ConsoleSession erik = as("erik");
        String proposal = erik.propose("/changes/rate-limit", Map.of("topic", "order-paid", "perSecond", "1234", "baseRevision", rev()));

        HttpResponse<String> noComment = erik.publish(proposal, "  ");

        assertThat(noComment.statusCode()).isEqualTo(422);
        assertThat(noComment.body()).contains("a comment saying why is required").contains("+    rateLimitPerSecond: 1234");
        assertThat(console.published()).doesNotContain("1234");
    }

    @Test
    void aModeSwitchTheSdkWouldRejectGoesBackToThePageNamingTheKey() throws Exception {
        ConsoleSession erik = as("erik");

        HttpResponse<String> refused = erik.post("/changes/mode", Map.of("topic", "order-paid", "group", "billing", "mode", "PROXY",
                "baseRevision", rev()));

        assertThat(refused.statusCode()).isEqualTo(302);
        assertThat(refused.headers().firstValue("Location").orElseThrow()).endsWith("/topics/order-paid");
        assertThat(erik.get("/topics/order-paid").body()).as("PROXY mode needs the platform's proxy section")
                .contains("proxy.endpoints: at least one proxy endpoint is required");
    }

    @Test
    void healthShowsTheDialTestFiguresPerBrokerAndAnApplicationThatRejectedAReload() throws Exception {
        String page = as("vera").get("/health").body();

        assertThat(page).containsPattern("cluster-b</td>\\s*<td>broker-b-0</td>\\s*<td>normal</td>\\s*<td class=\"num\">200</td>\\s*"
                + "<td class=\"num bad\">3</td>\\s*<td class=\"num\">0</td>\\s*<td class=\"num\">\\d+ ms</td>");
        assertThat(page).containsPattern("checkout</td>\\s*<td class=\"bad\">REJECTED");
        assertThat(as("vera").get("/topics").body()).contains("checkout rejected the last configuration change")
                .contains("1 lane(s) losing or duplicating");
    }

    /** Real Micrometer meters under the dial test's and the SDK's names, as their /metrics serve them. */
    private static void recordHealth(PrometheusMeterRegistry registry) {
        recordDialTest(registry);
        SdkMetrics sdk = new SdkMetrics(registry, "checkout");
        sdk.reloaded(true);
        sdk.reloaded(false);
        sdk.reloadHealthGauge(() -> 1);
    }

    /** One lane per cluster, 200 probes each; cluster-b's lost 3. */
    static void recordDialTest(PrometheusMeterRegistry registry) {
        for (String cluster : List.of("cluster-a", "cluster-b")) {
            Tags lane = Tags.of(DialTestMetrics.TAG_CLUSTER, cluster, DialTestMetrics.TAG_BROKER, "broker-" + cluster.substring(8) + "-0",
                    DialTestMetrics.TAG_KIND, "normal");
            Counter.builder(DialTestMetrics.PROBES_SENT).tags(lane).register(registry).increment(200);
            Counter.builder(DialTestMetrics.PROBES_LOST).tags(lane).register(registry).increment(cluster.endsWith("b") ? 3 : 0);
            Counter.builder(DialTestMetrics.PROBES_DUPLICATED).tags(lane).register(registry);
            Timer latency = Timer.builder(DialTestMetrics.PROBE_LATENCY).tags(lane).publishPercentileHistogram()
                    .minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofMinutes(2)).register(registry);
            for (int i = 0; i < 197; i++) {
                latency.record(Duration.ofMillis(5 + i % 20));
            }
        }
    }
}
