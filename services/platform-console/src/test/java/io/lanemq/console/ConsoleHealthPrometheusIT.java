package io.lanemq.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.dialtest.DialTestMetrics;
import io.lanemq.service.http.ServiceEndpoints;
import io.lanemq.testkit.etcd.EtcdServer;
import io.lanemq.testkit.metrics.PrometheusServer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The health page with a Prometheus configured reads windowed figures from its HTTP API, in a real browser: a real
 * Prometheus scrapes meters recorded under the dial test's and the SDK's names. Losses counted before the window
 * (the counters' history since the process started) do not show; losses in the window do. A second console on the
 * same etcd without a Prometheus shows the counters since start and says so.
 */
@Execution(ExecutionMode.CONCURRENT) // waits on an etcd, consoles and a Prometheus of its own: see junit-platform.properties
class ConsoleHealthPrometheusIT {

    @Test
    void withAPrometheusTheHealthPageShowsTheLastMinutesAndWithoutOneTheCountersSinceStart() throws Exception {
        Optional<Path> binary = PrometheusServer.binary();
        if ("true".equals(System.getenv("CI"))) {
            assertThat(binary).as("the prometheus binary (bin/setup-tools installs it): a CI run never skips this").isPresent();
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(binary.isPresent(), "prometheus is not installed (bin/setup-tools)");
        ChromeDriver browser = Browser.start();
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Tags laneB = Tags.of(DialTestMetrics.TAG_CLUSTER, "cluster-b", DialTestMetrics.TAG_BROKER, "broker-b-0",
                DialTestMetrics.TAG_KIND, "normal");
        // The history before the window: cluster-a 200 sent, cluster-b 200 sent and 3 lost (ConsoleApiIT's figures).
        ConsoleApiIT.recordDialTest(meters);
        SdkMetrics sdk = new SdkMetrics(meters, "checkout");
        sdk.reloaded(true);
        sdk.reloadHealthGauge(() -> 1);
        try (EtcdServer etcd = EtcdServer.started();
             ServiceEndpoints target = ServiceEndpoints.start("console-it-prometheus-target", new InetSocketAddress("127.0.0.1", 0),
                     meters, null);
             PrometheusServer prometheus = PrometheusServer.start(binary.get(), target.metricsUri().getAuthority());
             ConsoleFixture windowed = ConsoleFixture.start(etcd, "/lanemq/platform/console-prometheus-it", ConsoleApiIT.twoIdcs(),
                     "--lanemq.console.prometheus-url=" + prometheus.uri(), "--lanemq.console.prometheus-window=1m");
             ConsoleFixture sinceStart = ConsoleFixture.start(etcd, "/lanemq/platform/console-prometheus-it", ConsoleApiIT.twoIdcs(),
                     "--lanemq.console.dial-test-metrics-url=" + target.metricsUri(),
                     "--lanemq.console.sdk-metrics-urls=" + target.metricsUri())) {
            await().atMost(Duration.ofSeconds(20)).until(prometheus::targetUp);
            signIn(browser, windowed);
            browser.get(windowed.base() + "/health");
            assertThat(browser.findElement(By.id("basis")).getText()).as("what the figures count")
                    .isEqualTo("Figures over the last 1m, from Prometheus at " + prometheus.uri() + "/.");

            // In the window: 40 more probes sent on cluster-b, none lost yet, and one configuration change applied.
            Counter sent = meters.get(DialTestMetrics.PROBES_SENT).tags(laneB).counter();
            Counter lost = meters.get(DialTestMetrics.PROBES_LOST).tags(laneB).counter();
            sent.increment(40);
            sdk.reloaded(true);
            await("cluster-b's 40 probes in the window, its 3 older losses left out").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                        browser.navigate().refresh();
                        String row = laneRow(browser, "cluster-b");
                        assertThat(row).as("cluster-b's row: sent in the window (increase extrapolates a little), lost, duplicated")
                                .matches("cluster-b broker-b-0 normal (4\\d|5\\d) 0 0 .*");
                        assertThat(browser.findElement(By.id("clients")).getText())
                                .as("the last change still rejected (the gauge), one change applied in the window")
                                .contains("checkout REJECTED (previous configuration in force) 1 0 Prometheus");
                    });
            assertThat(browser.findElements(By.cssSelector(".error"))).as("Prometheus answered every query").isEmpty();

            lost.increment(2);
            await("cluster-b's 2 losses in the window").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> {
                        browser.navigate().refresh();
                        assertThat(laneRow(browser, "cluster-b")).matches("cluster-b broker-b-0 normal \\d+ [23] 0 .*");
                        assertThat(browser.findElement(By.cssSelector("#lanes td.bad")).getText()).as("the loss, marked").matches("[23]");
                    });
            Browser.screenshot(browser, "health-prometheus");

            browser.manage().deleteAllCookies();
            signIn(browser, sinceStart);
            browser.get(sinceStart.base() + "/health");
            assertThat(browser.findElement(By.id("basis")).getText()).as("without a Prometheus, the page says what it counts")
                    .startsWith("Figures since each process started");
            assertThat(laneRow(browser, "cluster-b")).as("every probe and loss since the process started")
                    .startsWith("cluster-b broker-b-0 normal 240 5 0 ");
        } finally {
            browser.quit();
        }
    }

    private static String laneRow(ChromeDriver browser, String cluster) {
        return browser.findElements(By.cssSelector("#lanes tr")).stream().map(r -> r.getText())
                .filter(text -> text.startsWith(cluster + " ")).findFirst().orElse("(no row for " + cluster + ")");
    }

    private static void signIn(ChromeDriver browser, ConsoleFixture console) {
        browser.get(console.base() + "/login");
        browser.findElement(By.id("username")).sendKeys("vera");
        browser.findElement(By.id("password")).sendKeys(ConsoleFixture.PASSWORD);
        browser.findElement(By.cssSelector("button[type=submit]")).click();
        assertThat(browser.findElement(By.id("who")).getText()).isEqualTo("vera (viewer)");
    }
}
