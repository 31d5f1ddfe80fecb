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
import io.lanemq.testkit.RepoRoot;
import io.lanemq.testkit.etcd.EtcdServer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
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
        assertThat(refused.body()).as("the typed comment is kept and the same change offered on the new revision")
                .contains("Make the same change on revision " + rev()).contains("value=\"shift to idc-a\"");

        HttpResponse<String> again = erik.post("/changes/" + eriksChange + "/again", Map.of("comment", "shift to idc-a"));
        String againId = again.headers().firstValue("Location").orElseThrow().replaceAll(".*/changes/", "");
        assertThat(erik.get("/changes/" + againId).body()).as("the preview on the new revision, comment filled in")
                .contains("Applied to revision <span>" + rev()).contains(">shift to idc-a</textarea>");
        assertThat(erik.publish(againId, "shift to idc-a").statusCode()).isEqualTo(302);
        assertThat(console.published()).as("both changes stand").contains("rateLimitPerSecond: 900").contains("weight: 70");
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
        assertThat(olga.get("/history/" + console.revision()).body()).as("the entry's diff, coloured")
                .contains("<span class=\"del\">-    rateLimitPerSecond: 200</span>")
                .contains("<span class=\"add\">+    rateLimitPerSecond: 100</span>");
        assertThat(history).as("times to the second with the zone").containsPattern("<td>\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC</td>");
        assertThat(console.published()).as("the revision's text, exactly").isEqualTo(firstDocument);
    }

    @Test
    void rolesAndOwnershipAreEnforcedWith403AndFormsNeedTheirCsrfToken() throws Exception {
        ConsoleSession vera = as("vera");
        ConsoleSession erik = as("erik");
        String before = console.published();

        assertThat(vera.get("/topics/order-paid").statusCode()).as("a viewer reads").isEqualTo(200);
        HttpResponse<String> viewerPost = vera.post("/changes/weights", Map.of("topic", "order-paid", "baseRevision", rev(),
                "weight.cluster-a", "1"));
        assertThat(viewerPost.statusCode()).as("a viewer changes nothing").isEqualTo(403);
        assertThat(viewerPost.body()).as("the console's own page").contains("Not allowed").doesNotContain("Whitelabel");
        HttpResponse<String> notOwned = erik.post("/changes/weights", Map.of("topic", "refund", "baseRevision", rev(),
                "weight.cluster-b", "1"));
        assertThat(notOwned.statusCode()).as("an editor changes only their application's topics").isEqualTo(403);
        assertThat(notOwned.body()).contains("Not allowed").contains("erik may not weights of refund").doesNotContain("Whitelabel");
        assertThat(vera.get("/topics/order-paid").body()).as("a viewer is offered no change").doesNotContain("Preview the weight change")
                .doesNotContain("Preview the rate limit").doesNotContain("Switch to");
        assertThat(erik.get("/operations").body()).as("an editor is offered no drain").doesNotContain("id=\"drain-");
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
        assertThat(noComment.body()).contains("a comment saying why is required").contains("+    rateLimitPerSecond: 1234")
                .as("named at the top of the page too").containsPattern("id=\"problems\">Not published: a comment saying why is required");
        assertThat(console.published()).doesNotContain("1234");
    }

    @Test
    void aRouteToAnUnknownClusterIsRefusedBesideItsRowAndAChangeOfNothingSaysWhatWasCompared() throws Exception {
        ConsoleSession erik = as("erik");

        HttpResponse<String> response = erik.post("/changes/topic", Map.of("name", "order-paid", "baseRevision", rev(),
                "rateLimitPerSecond", "0",
                "routes[0].cluster", "cluster-a", "routes[0].physicalTopic", "order_paid", "routes[0].weight", "50",
                "routes[1].cluster", "cluster-z", "routes[1].physicalTopic", "order_paid", "routes[1].weight", "50",
                "groups", "billing DIRECT"));

        assertThat(response.statusCode()).isEqualTo(422);
        assertThat(response.body()).containsPattern("data-field=\"routes\\[1\\]\\.cluster\"[^>]*>topics\\.order-paid\\.routes\\[1\\]"
                + "\\.cluster: unknown cluster &#39;cluster-z&#39;");

        String now = rev();
        String weights = new PlatformConfigParser().parse(console.published(), "etcd").topic("order-paid").orElseThrow().routes()
                .stream().map(r -> r.cluster() + "=" + r.weight()).reduce((a, b) -> a + " " + b).orElseThrow();
        Map<String, String> same = new java.util.HashMap<>(Map.of("topic", "order-paid", "baseRevision", now));
        for (String pair : weights.split(" ")) {
            same.put("weight." + pair.split("=")[0], pair.split("=")[1]);
        }
        assertThat(erik.post("/changes/weights", same).statusCode()).isEqualTo(302);
        assertThat(erik.get("/topics/order-paid").body()).contains("this changes nothing: the document at revision " + now
                + " is the same after &#39;weights of order-paid");
    }

    @Test
    void aDrainAndItsUndoOnTheExampleDocumentChangeOnlyItsWeightsAndTheOperationsPageShowsWhatIsDrained() throws Exception {
        String example = Files.readString(RepoRoot.resolve("examples", "platform.yaml"));
        try (ConsoleFixture own = ConsoleFixture.start(etcd, "/lanemq/platform/console-example-it", example)) {
            ConsoleSession olga = ConsoleSession.signIn(own.base(), "olga", ConsoleFixture.PASSWORD);
            String before = olga.get("/operations").body();
            assertThat(before).as("what a drain would move").containsPattern("id=\"moves-idc-b\">order-paid</td>")
                    .contains("id=\"drain-idc-b\"");

            String drain = olga.propose("/operations/drain", Map.of("idc", "idc-b", "baseRevision", Long.toString(own.revision())));
            assertThat(olga.publish(drain, "idc-b maintenance").statusCode()).isEqualTo(302);
            long drainRevision = own.revision();

            String drained = own.published();
            List<String> changed = com.github.difflib.DiffUtils.diff(example.lines().toList(), drained.lines().toList()).getDeltas()
                    .stream().flatMap(d -> d.getTarget().getLines().stream()).toList();
            assertThat(changed).as("only the two weights of order-paid").containsExactly(
                    "      - { cluster: cluster-a, physicalTopic: order_paid, weight: 100 }",
                    "      - { cluster: cluster-b, physicalTopic: order_paid, weight: 0, shadowTopic: order_paid_load }");
            assertThat(new PlatformConfigParser("staging").parse(drained, "etcd").topic("order-paid").orElseThrow()
                    .route("cluster-b").orElseThrow().weight()).as("staging reads the drained document").isZero();
            awaitMetric(own, "lanemq_console_idc_drained{idc=\"idc-b\",key=\"" + own.key + "\"} 1.0",
                    "the dashboards' drain annotation: idc-b drained");
            awaitMetric(own, "lanemq_console_config_revision{key=\"" + own.key + "\"} " + (double) drainRevision,
                    "the dashboards' publish annotation: the drain's revision");
            String operations = olga.get("/operations").body();
            assertThat(operations).contains("drained: takes no sends").doesNotContain("id=\"drain-idc-b\"")
                    .contains("id=\"undo-" + drainRevision + "\"");

            String undo = olga.propose("/operations/undo", Map.of("revision", Long.toString(drainRevision),
                    "baseRevision", Long.toString(own.revision())));
            assertThat(olga.publish(undo, "maintenance done").statusCode()).isEqualTo(302);
            assertThat(own.published()).as("drain and undo give the text back byte for byte").isEqualTo(example);
            awaitMetric(own, "lanemq_console_idc_drained{idc=\"idc-b\",key=\"" + own.key + "\"} 0.0", "idc-b no longer drained");
            assertThat(olga.get("/operations").body()).as("undo is offered only while the drain is in force")
                    .doesNotContain("id=\"undo-" + drainRevision + "\"").contains("id=\"undone-" + drainRevision + "\"");

            own.client.put(own.key, example + "# edited by hand\n");
            long byHand = own.revision();
            assertThat(olga.get("/history").body()).as("a write around the console is an entry of its own")
                    .contains("written around the console and the config tool").contains("/history/" + byHand);
            assertThat(olga.get("/history/" + byHand).body()).as("diffed against the last known revision")
                    .contains("<span class=\"add\">+# edited by hand</span>");
        }
    }

    /** Waits for the console's /metrics to hold {@code line} (ConsoleMetrics reads etcd every few seconds). */
    private static void awaitMetric(ConsoleFixture fixture, String line, String what) {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        org.awaitility.Awaitility.await(what).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(250)).until(() -> http.send(
                java.net.http.HttpRequest.newBuilder(fixture.operations().resolve("/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body().lines().anyMatch(line::equals));
    }

    /** Entries per history page, as PagesController shows them. */
    private static final int HISTORY_PAGE = 50;

    @Test
    void moreThanOnePageOfHistoryPagesWithNewerAndOlderLinksShowingEveryEntryOnce() throws Exception {
        String example = Files.readString(RepoRoot.resolve("examples", "platform.yaml"));
        try (ConsoleFixture own = ConsoleFixture.start(etcd, "/lanemq/platform/console-history-it", example)) {
            ConsoleSession olga = ConsoleSession.signIn(own.base(), "olga", ConsoleFixture.PASSWORD);
            List<Long> published = new java.util.ArrayList<>();
            for (int i = 1; i <= HISTORY_PAGE + 5; i++) {
                assertThat(olga.publish(olga.propose("/changes/rate-limit", Map.of("topic", "order-paid",
                        "baseRevision", Long.toString(own.revision()), "perSecond", Integer.toString(1000 + i))), "limit " + i).statusCode())
                        .isEqualTo(302);
                published.add(own.revision());
            }
            String first = olga.get("/history").body();
            String second = olga.get("/history?page=2").body();
            List<Long> onFirst = revisionsOn(first);
            List<Long> onSecond = revisionsOn(second);

            assertThat(first).as("page 1: older only").contains("id=\"older\"").doesNotContain("id=\"newer\"");
            assertThat(second).as("the last page: newer only").contains("id=\"newer\"").doesNotContain("id=\"older\"");
            assertThat(onFirst).hasSize(HISTORY_PAGE).isSortedAccordingTo(java.util.Comparator.reverseOrder());
            assertThat(onSecond).isNotEmpty().isSortedAccordingTo(java.util.Comparator.reverseOrder());
            assertThat(onFirst.get(onFirst.size() - 1)).as("page 2 continues below page 1").isGreaterThan(onSecond.get(0));
            List<Long> all = new java.util.ArrayList<>(onFirst);
            all.addAll(onSecond);
            assertThat(all).as("no entry twice").doesNotHaveDuplicates().as("none missing").containsAll(published);
        }
    }

    private static List<Long> revisionsOn(String historyPage) {
        java.util.regex.Matcher link = java.util.regex.Pattern.compile("href=\"/history/(\\d+)\"").matcher(historyPage);
        List<Long> revisions = new java.util.ArrayList<>();
        while (link.find()) {
            revisions.add(Long.parseLong(link.group(1)));
        }
        return revisions;
    }

    @Test
    void theOperationsEndpointsAnswerAsOnEveryService() throws Exception {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.util.function.Function<String, HttpResponse<String>> get = path -> {
            try {
                return http.send(java.net.http.HttpRequest.newBuilder(console.operations().resolve(path)).build(),
                        HttpResponse.BodyHandlers.ofString());
            } catch (Exception e) {
                throw new AssertionError(path, e);
            }
        };

        assertThat(get.apply("/livez").statusCode()).isEqualTo(200);
        HttpResponse<String> ready = get.apply("/readyz");
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(ready.body()).startsWith("SERVING").contains("etcd: revision ");
        assertThat(get.apply("/metrics").body()).as("the JVM's meters, as on every service").contains("jvm_memory_used_bytes");
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
