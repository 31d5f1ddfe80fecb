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
    void servesMetricsAndAHealthThatFollowsItsSource() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.counter("lanemq.test.things").increment(3);
        AtomicBoolean up = new AtomicBoolean(true);
        try (ServiceEndpoints endpoints = ServiceEndpoints.start("test-http", new InetSocketAddress("127.0.0.1", 0), registry,
                () -> up.get() ? ServiceEndpoints.Health.up("UP\ncluster-a ok") : ServiceEndpoints.Health.down("DRAINING"))) {
            HttpResponse<String> metrics = get(endpoints.metricsUri(), "GET");
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.body()).contains("lanemq_test_things_total 3.0");
            assertThat(endpoints.address().getAddress().getHostAddress()).isEqualTo("127.0.0.1");

            URI health = endpoints.metricsUri().resolve("/health");
            assertThat(get(health, "GET")).satisfies(r -> {
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.body()).isEqualTo("UP\ncluster-a ok\n");
            });
            up.set(false);
            assertThat(get(health, "GET")).satisfies(r -> {
                assertThat(r.statusCode()).isEqualTo(503);
                assertThat(r.body()).isEqualTo("DRAINING\n");
            });
            assertThat(get(health, "POST").statusCode()).isEqualTo(405);
            assertThat(get(endpoints.metricsUri().resolve("/other"), "GET").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void withoutAHealthSourceOnlyMetricsAreServedAndABusyPortIsNamed() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (ServiceEndpoints endpoints = ServiceEndpoints.start("test-http", new InetSocketAddress("127.0.0.1", 0), registry,
                null)) {
            assertThat(get(endpoints.metricsUri().resolve("/health"), "GET").statusCode()).isEqualTo(404);
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
                () -> ServiceEndpoints.Health.up("UP"))) {
            for (int i = 0; i < 8; i++) {
                Socket socket = new Socket();
                stuck.add(socket);
                socket.connect(endpoints.address());
                socket.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush(); // and never the blank line that ends the request
            }
            HttpRequest health = HttpRequest.newBuilder(endpoints.metricsUri().resolve("/health"))
                    .timeout(Duration.ofSeconds(15)).build();
            HttpResponse<String> answer = http.send(health, HttpResponse.BodyHandlers.ofString());

            assertThat(answer.statusCode()).as("/health with 8 half-sent requests open").isEqualTo(200);
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
