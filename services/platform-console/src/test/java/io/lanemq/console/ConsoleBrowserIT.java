package io.lanemq.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.localstack.SendStream;
import io.lanemq.service.http.ServiceEndpoints;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.etcd.EtcdServer;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * End to end in a real browser: an operator drains an IDC through the console's pages while an SDK producer sends
 * through the embedded stack with its configuration from etcd; the producer's traffic leaves the drained IDC, the
 * history shows who did it and why, and the undo brings the traffic back. Saves the screenshots the README shows.
 */
@Isolated // times how soon the producer's traffic follows a published change: runs alone, see junit-platform.properties
class ConsoleBrowserIT {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final String TOPIC = "console-orders";

    @Test
    void anOperatorDrainsAnIdcThroughThePageMovingTheProducersTrafficAndUndoesIt() throws Exception {
        ChromeDriver browser = Browser.start();
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic(TOPIC, 4, 50, 50, LocalPlatform.unique("console"));
        String drainedIdc = platform.idcB().name();
        String drainedCluster = platform.idcB().clusterName();
        PrometheusMeterRegistry sdkMeters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Metrics.globalRegistry.add(sdkMeters);
        // No dial test runs here: its rows on the health page come from meters recorded under its names (ConsoleApiIT).
        PrometheusMeterRegistry dialTestMeters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        ConsoleApiIT.recordDialTest(dialTestMeters);
        try (EtcdServer etcd = EtcdServer.started();
             ServiceEndpoints sdkEndpoint = ServiceEndpoints.start("console-it-sdk-metrics", new InetSocketAddress("127.0.0.1", 0), sdkMeters, null);
             ServiceEndpoints dialTestEndpoint = ServiceEndpoints.start("console-it-dialtest-metrics", new InetSocketAddress("127.0.0.1", 0),
                     dialTestMeters, null);
             ConsoleFixture console = ConsoleFixture.start(etcd, "/lanemq/platform/console-browser-it", platform.yaml(),
                     "--lanemq.console.sdk-metrics-urls=" + sdkEndpoint.metricsUri(),
                     "--lanemq.console.dial-test-metrics-url=" + dialTestEndpoint.metricsUri());
             MessagingClient client = MessagingClient.create(ClientOptions.builder("checkout")
                     .configLocation("etcd://" + etcd.endpoint() + console.key).build());
             Producer producer = client.createProducer(ProducerOptions.defaults());
             SendStream stream = new SendStream(producer, TOPIC, 200)) {
            // Precondition, not the subject: both IDCs take sends before the drain.
            await().atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(250)).until(() -> shareOver(stream, 2, drainedCluster) >= 0.25);

            signIn(browser, console, "olga");
            browser.get(console.base() + "/topics?q=console");
            assertThat(browser.findElement(By.id("topics")).getText()).contains(TOPIC);
            Browser.screenshot(browser, "topics");
            browser.get(console.base() + "/topics/" + TOPIC);
            Browser.screenshot(browser, "topic");

            browser.get(console.base() + "/operations");
            assertThat(browser.findElement(By.id("moves-" + drainedIdc)).getText()).as("what a drain would move").contains(TOPIC);
            Browser.screenshot(browser, "operations");
            browser.findElement(By.id("drain-" + drainedIdc)).click();
            assertThat(browser.findElement(By.id("change")).getText()).isEqualTo("drain " + drainedIdc);
            assertThat(browser.findElement(By.id("diff")).getText()).as("the preview's diff").contains("+      weight: 0").contains("+      weight: 100");
            assertThat(browser.findElements(By.cssSelector("#diff span.add"))).as("added lines, coloured").hasSize(2);
            assertThat(browser.findElement(By.cssSelector("#diff span.del")).getCssValue("background-color"))
                    .as("removed lines, coloured").isEqualTo("rgba(255, 235, 233, 1)");
            browser.findElement(By.cssSelector("#publish button[type=submit]")).click();
            assertThat(browser.findElement(By.id("problems")).getText()).as("an empty comment, named at the top")
                    .contains("a comment saying why is required");
            browser.findElement(By.id("comment")).sendKeys("idc-b network maintenance, ticket OPS-7");
            Browser.screenshot(browser, "preview");
            long drainedAt = publish(browser, stream);

            await().atMost(Duration.ofSeconds(20)).until(() -> stream.nowNanos() > drainedAt + 4 * SECOND);
            assertThat(SendStream.shareOf(stream.startedBetween(drainedAt + SECOND, drainedAt + 4 * SECOND), drainedCluster))
                    .as("share of the drained IDC's cluster from 1 s after the publish").isZero();

            String history = browser.findElement(By.id("history")).getText();
            assertThat(history).contains("drain " + drainedIdc).contains("olga").contains("idc-b network maintenance, ticket OPS-7");

            browser.get(console.base() + "/operations");
            assertThat(browser.findElement(By.id("idc-" + drainedIdc)).getText()).as("the drained IDC").contains("drained: takes no sends");
            long drainRevision = console.revision();
            browser.findElement(By.id("undo-" + drainRevision)).click();
            assertThat(browser.findElement(By.id("change")).getText()).startsWith("undo drain " + drainedIdc);
            browser.findElement(By.id("comment")).sendKeys("maintenance done");
            long undoneAt = publish(browser, stream);

            await().atMost(Duration.ofSeconds(20)).until(() -> stream.nowNanos() > undoneAt + 4 * SECOND);
            assertThat(SendStream.shareOf(stream.startedBetween(undoneAt + SECOND, undoneAt + 4 * SECOND), drainedCluster))
                    .as("share of the drained IDC's cluster once the drain is undone").isBetween(0.25, 0.75);
            assertThat(browser.findElement(By.id("history")).getText()).contains("undo drain " + drainedIdc + " at revision " + drainRevision)
                    .containsPattern("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC");
            browser.get(console.base() + "/operations");
            assertThat(browser.findElements(By.id("undo-" + drainRevision))).as("no undo once undone").isEmpty();
            browser.get(console.base() + "/history");
            Browser.screenshot(browser, "history");

            browser.get(console.base() + "/health");
            assertThat(browser.findElement(By.id("clients")).getText()).as("the SDK client took both changes")
                    .containsPattern("checkout applied \\d+ 0");
            Browser.screenshot(browser, "health");

            stream.close();
            await().atMost(Duration.ofSeconds(30)).until(stream::settled);
            assertThat(SendStream.successRate(stream.all())).as("no send failed across drain and undo").isEqualTo(1.0);
        } finally {
            browser.quit();
            Metrics.globalRegistry.remove(sdkMeters);
        }
    }

    private static void signIn(ChromeDriver browser, ConsoleFixture console, String user) {
        browser.get(console.base() + "/login");
        browser.findElement(By.id("username")).sendKeys(user);
        browser.findElement(By.id("password")).sendKeys(ConsoleFixture.PASSWORD);
        browser.findElement(By.cssSelector("button[type=submit]")).click();
        assertThat(browser.findElement(By.id("who")).getText()).isEqualTo(user + " (operator)");
    }

    /** Clicks Publish on the preview page; returns the stream's time of the click. */
    private static long publish(ChromeDriver browser, SendStream stream) {
        long at = stream.nowNanos();
        browser.findElement(By.cssSelector("#publish button[type=submit]")).click();
        assertThat(browser.findElement(By.id("published")).getText()).startsWith("Published revision");
        return at;
    }

    private static double shareOver(SendStream stream, int seconds, String cluster) {
        long now = stream.nowNanos();
        return now < 3 * SECOND ? 0 : SendStream.shareOf(stream.startedBetween(now - seconds * SECOND, now), cluster);
    }
}
