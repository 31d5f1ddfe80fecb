package io.lanemq.service.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ServiceEndpointsTest {
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void servesMetricsLivenessAndAReadinessThatFollowsThePhaseAndTheChecks() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.counter("lanemq.test.things").increment(3);
        AtomicBoolean storeOk = new AtomicBoolean(true);
        Readiness readiness = Readiness.withChecks(() -> storeOk.get()
                ? ServiceEndpoints.Health.up("cluster-a ok") : ServiceEndpoints.Health.down("cluster-a store full"));
        try (ServiceEndpoints endpoints = ServiceEndpoints.start("test-http", new InetSocketAddress("127.0.0.1", 0), registry,
                readiness)) {
            HttpResponse<String> metrics = get(endpoints.metricsUri(), "GET");
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.body()).contains("lanemq_test_things_total 3.0");
            assertThat(endpoints.address().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
            assertThat(endpoints.metricsUri().getPath()).isEqualTo(ServiceEndpoints.METRICS_PATH);

            URI ready = endpoints.metricsUri().resolve(ServiceEndpoints.READINESS_PATH);
            URI live = endpoints.metricsUri().resolve(ServiceEndpoints.LIVENESS_PATH);
            assertAnswer(ready, 503, "STARTING\n");
            assertAnswer(live, 200, "OK\n");
            readiness.catchingUp();
            assertAnswer(ready, 503, "CATCHING_UP\n");
            readiness.serving();
            assertAnswer(ready, 200, "SERVING\ncluster-a ok\n");
            storeOk.set(false);
            assertAnswer(ready, 503, "SERVING\ncluster-a store full\n");
            storeOk.set(true);
            readiness.draining();
            assertAnswer(ready, 503, "DRAINING\n");
            readiness.serving();
            assertThat(readiness.phase()).as("a drain is final: a late 'serving' does not undo it")
                    .isEqualTo(Readiness.Phase.DRAINING);
            assertAnswer(live, 200, "OK\n");

            assertThat(get(ready, "POST").statusCode()).isEqualTo(405);
            assertThat(get(endpoints.metricsUri().resolve("/other"), "GET").statusCode()).isEqualTo(404);
            assertThat(get(endpoints.metricsUri().resolve("/readyz/x"), "GET").statusCode())
                    .as("only the exact paths are served").isEqualTo(404);
            assertThat(get(endpoints.metricsUri().resolve("/health"), "GET").statusCode())
                    .as("the former /health is gone, not half-served").isEqualTo(404);
        }
    }

    private void assertAnswer(URI uri, int status, String body) throws Exception {
        HttpResponse<String> answer = get(uri, "GET");
        assertThat(answer.statusCode()).as(uri.getPath() + " status").isEqualTo(status);
        assertThat(answer.body()).as(uri.getPath() + " body").isEqualTo(body);
    }

    @Test
    void withoutAReadinessOnlyMetricsAndLivenessAreServedAndABusyPortIsNamed() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (ServiceEndpoints endpoints = ServiceEndpoints.start("test-http", new InetSocketAddress("127.0.0.1", 0), registry,
                null)) {
            assertThat(get(endpoints.metricsUri().resolve(ServiceEndpoints.READINESS_PATH), "GET").statusCode()).isEqualTo(404);
            assertThat(get(endpoints.metricsUri().resolve(ServiceEndpoints.LIVENESS_PATH), "GET").statusCode()).isEqualTo(200);
            InetSocketAddress taken = endpoints.address();
            assertThatThrownBy(() -> ServiceEndpoints.start("test-http", taken, registry, null))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("cannot serve metrics and health on " + taken);
        }
    }

    @Test
    void clientsThatSendHalfARequestAndWaitDoNotStallHealthForOthers() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        List<Socket> stuck = new ArrayList<>();
        try (ServiceEndpoints endpoints = ServiceEndpoints.start("test-http", new InetSocketAddress("127.0.0.1", 0), registry,
                Readiness.create())) {
            for (int i = 0; i < 8; i++) {
                Socket socket = new Socket();
                stuck.add(socket);
                socket.connect(endpoints.address());
                socket.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush(); // and never the blank line that ends the request
            }
            HttpRequest health = HttpRequest.newBuilder(endpoints.metricsUri().resolve(ServiceEndpoints.LIVENESS_PATH))
                    .timeout(Duration.ofSeconds(15)).build();
            HttpResponse<String> answer = http.send(health, HttpResponse.BodyHandlers.ofString());

            assertThat(answer.statusCode()).as("/livez with 8 half-sent requests open").isEqualTo(200);
            for (Socket socket : stuck) {
                socket.setSoTimeout(15_000);
                assertThat(closedByServer(socket)).as("a half-sent request is closed by the server").isTrue();
            }
        } finally {
            for (Socket socket : stuck) {
                socket.close();
            }
        }
    }

    /** The server closed the connection: an end of stream, or a reset (it closed with our bytes unread). */
    private static boolean closedByServer(Socket socket) throws Exception {
        try {
            return socket.getInputStream().read() == -1;
        } catch (SocketException e) {
            return e.getMessage().contains("reset");
        }
    }

    private HttpResponse<String> get(URI uri, String method) throws Exception {
        return http.send(HttpRequest.newBuilder(uri).method(method, HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
