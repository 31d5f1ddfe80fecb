package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.grpc.Status;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.proxy.boot.ConsumerProxyApplication;
import io.lanemq.proxy.boot.ProxyLifecycle;
import io.lanemq.proxy.protocol.Delivery;
import io.lanemq.testkit.tls.SelfSignedCertificate;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import io.lanemq.service.http.ServiceEndpoints;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The Spring Boot service end to end: started with {@code --lanemq.proxy.*} arguments over real brokers and TLS,
 * it serves consumers, {@code /livez}, {@code /readyz} and {@code /metrics}; closing the context (what SIGTERM
 * does, after marking it not ready) drains while {@code /readyz} answers DRAINING, waits for the outstanding acks,
 * then commits.
 */
@Execution(ExecutionMode.CONCURRENT) // waits on its own topic and group: see junit-platform.properties
class ConsumerProxyApplicationIT {
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(40);

    @TempDir
    Path dir;

    @Test
    void servesHealthAndMetricsAndClosingTheContextDrainsThenCommits() throws Exception {
        String group = LocalPlatform.unique("proxy-boot");
        LocalPlatform platform = ProxyHarness.platform().addTopic("proxy-boot", 1, 100, 0, group);
        String topic = platform.physicalTopic("proxy-boot");
        Path tokens = Files.writeString(dir.resolve("tokens.properties"), ProxyHarness.APPLICATION + "=" + ProxyHarness.TOKEN + "\n");
        DefaultMQAdminExt admin = ProxyHarness.adminOfClusterA(platform);
        ConfigurableApplicationContext context = ConsumerProxyApplication.application().run(
                "--lanemq.proxy.http-address=127.0.0.1:0",
                "--lanemq.proxy.config-location=" + platform.writeConfig(),
                "--lanemq.proxy.listen=127.0.0.1:0",
                "--lanemq.proxy.tls-key-store=" + SelfSignedCertificate.shared().keyStore(),
                "--lanemq.proxy.tls-key-store-password=" + new String(SelfSignedCertificate.shared().password()),
                "--lanemq.proxy.tokens-file=" + tokens,
                "--lanemq.proxy.commit-interval=200ms",
                "--lanemq.proxy.drain-timeout=" + DRAIN_TIMEOUT.toMillis(),
                "--lanemq.proxy.shutdown-grace=" + DRAIN_TIMEOUT.plusSeconds(20).toMillis());
        TestConsumer consumer = null;
        try {
            String base = "http://127.0.0.1:" + context.getBean(ServiceEndpoints.class).address().getPort();
            ConsumerProxyServer proxy = context.getBean(ProxyLifecycle.class).server().orElseThrow();
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

            List<String> ids = ProxyHarness.send(platform, "proxy-boot", 20, i -> null);
            Set<String> held = Set.of(ids.get(3), ids.get(11));
            TestConsumer boot = ProxyHarness.consumer(proxy, "boot", d -> !held.contains(d.getMessageId()))
                    .subscribe(ProxyHarness.APPLICATION, group, "proxy-boot", 100);
            consumer = boot;
            await().atMost(Duration.ofSeconds(60)).until(() -> boot.deliveries.size() == 20 && boot.acked.size() == 18);
            // The offset stays at message 3, the lowest unacked, over several commit intervals.
            await().atMost(Duration.ofSeconds(10)).until(() -> ProxyHarness.committed(admin, group, topic) == 3);
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                    .until(() -> ProxyHarness.committed(admin, group, topic) == 3);

            HttpResponse<String> health = get(http, base + ServiceEndpoints.READINESS_PATH);
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).startsWith("SERVING").as("the configuration line: read from its source, not a snapshot")
                    .contains("configuration file:").contains(": current");
            assertThat(get(http, base + ServiceEndpoints.LIVENESS_PATH).statusCode()).isEqualTo(200);
            HttpResponse<String> prometheus = get(http, base + ServiceEndpoints.METRICS_PATH);
            assertThat(prometheus.statusCode()).isEqualTo(200);
            assertThat(prometheus.body()).contains("lanemq_proxy_deliveries_total{").contains("consumer=\"boot\"")
                    .contains("lanemq_proxy_in_flight{").contains("lanemq_proxy_uncommitted{")
                    .contains("lanemq_proxy_acks_total{").contains("jvm_memory_used_bytes{");
            assertThat(get(http, base + "/actuator/env").statusCode()).as("only the operations endpoints are served").isEqualTo(404);

            long closeStart = System.nanoTime();
            CompletableFuture<Void> closing = CompletableFuture.runAsync(context::close);
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
                HttpResponse<String> draining = get(http, base + ServiceEndpoints.READINESS_PATH);
                return draining.statusCode() == 503 && draining.body().equals("DRAINING\n");
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> boot.statuses.stream()
                    .anyMatch(s -> s.getCode() == io.lanemq.proxy.protocol.Status.Code.DRAINING));
            assertThat(closing).as("the drain waits for the two outstanding acks").isNotDone();
            assertThat(ProxyHarness.committed(admin, group, topic)).isEqualTo(3);
            for (Delivery delivery : boot.deliveries) {
                if (held.contains(delivery.getMessageId())) {
                    boot.ack(delivery);
                }
            }
            closing.get(DRAIN_TIMEOUT.toSeconds() + 30, TimeUnit.SECONDS);
            long closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closeStart);
            System.out.printf("ConsumerProxyApplicationIT: context closed %d ms after close began (drain timeout %d ms)%n",
                    closeMillis, DRAIN_TIMEOUT.toMillis());
            assertThat(closeMillis).as("the drain ended on the last ack, not on its timeout").isLessThan(DRAIN_TIMEOUT.toMillis());
            assertThat(ProxyHarness.committed(admin, group, topic)).as("every message acked: committed to the queue's end")
                    .isEqualTo(20);
            await().atMost(Duration.ofSeconds(5)).until(() -> boot.ended.get() != null);
            assertThat(boot.ended.get().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
            assertThat(proxy.meters().find(ProxyMetrics.ACKS).counters()).as("the acks during the drain were counted")
                    .allSatisfy(counter -> assertThat(counter.count()).isEqualTo(20));
            assertThatThrownBy(() -> get(http, base + ServiceEndpoints.READINESS_PATH)).as("the endpoints stopped after the proxy")
                    .isInstanceOf(IOException.class);
        } finally {
            context.close();
            if (consumer != null) {
                consumer.close();
            }
            admin.shutdown();
            platform.close();
        }
    }

    private static HttpResponse<String> get(HttpClient http, String uri) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
