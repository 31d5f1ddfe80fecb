package io.lanemq.service.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.testkit.net.PortFuzzer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * The HTTP endpoints (the delay server's and the dial test's only port) under hostile input, seeded so a failure
 * replays: random bytes, requests cut short, an HTTP/2 preface followed by garbage, a flood of idle connections. Every
 * connection is answered or closed, {@code /readyz} is served during the flood and after, and the JDK server's log
 * (the only logger on this path) stays quiet.
 */
class ServiceEndpointsFuzzTest {
    private static final long SEED = 20261125L;
    private static final byte[] REQUEST = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/plain\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void everyHostileConnectionIsAnsweredOrClosedAndHealthIsServedThroughout() throws Exception {
        List<LogRecord> logged = new CopyOnWriteArrayList<>();
        Logger jdkServer = Logger.getLogger("com.sun.net.httpserver");
        Handler counter = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (isLoggable(record)) {
                    logged.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        jdkServer.addHandler(counter);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Readiness readiness = Readiness.create();
        readiness.serving();
        try (ServiceEndpoints endpoints = ServiceEndpoints.start("fuzz-http", new InetSocketAddress("127.0.0.1", 0), registry,
                readiness)) {
            URI health = endpoints.metricsUri().resolve(ServiceEndpoints.READINESS_PATH);
            long heapBefore = PortFuzzer.heapAfterGc();
            long start = System.nanoTime();
            PortFuzzer fuzz = PortFuzzer.against(endpoints.address(), SEED);

            PortFuzzer.Counts counts = fuzz.randomBytes(200, 4096)
                    .plus(fuzz.truncated(REQUEST, 100))
                    .plus(fuzz.prefaceThenGarbage(100));
            int accepted = fuzz.flood(300, () -> assertThat(healthStatus(health)).as("served during the flood").isEqualTo(200));

            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            assertThat(counts.hung()).as("connections the server left open: %s", counts).isZero();
            assertThat(counts.closed()).isEqualTo(400);
            assertThat(accepted).isPositive();
            assertThat(healthStatus(health)).as("served after").isEqualTo(200);
            assertThat(logged).as("log records at the JDK server's level for 700 hostile connections").hasSizeLessThanOrEqualTo(5);
            assertThat(seconds).as("short enough for every build").isLessThan(15);
            long grown = PortFuzzer.heapAfterGc() - heapBefore;
            System.out.printf("ServiceEndpointsFuzzTest: %s, flood 300 (%d accepted), heap after GC grew %d KiB%n", counts,
                    accepted, grown / 1024);
            assertThat(grown).as("heap kept after the hostile connections were closed").isLessThan(16L * 1024 * 1024);
        } finally {
            jdkServer.removeHandler(counter);
            registry.close();
        }
    }

    private int healthStatus(URI health) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(10)).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode();
    }
}
