package io.lanemq.service.http;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.lanemq.testkit.net.PortFuzzer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The HTTP endpoints (every service's) under hostile input, seeded so a failure replays: random bytes, requests cut
 * short, an HTTP/2 preface followed by garbage, a flood of idle connections, and slow clients that never finish a
 * request. Every connection is answered or closed, {@code /readyz} is served throughout (within a second, as a
 * kubelet's probe requires, under 200 slow clients), nothing logs a line per connection and nothing is kept of the
 * connections once closed.
 */
class ServiceEndpointsFuzzTest {
    private static final long SEED = 20261125L;
    private static final byte[] REQUEST = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/plain\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII);
    /** A kubelet probe's default timeoutSeconds. */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Readiness readiness = Readiness.create();

    @BeforeEach
    void listen() {
        readiness.serving();
        logged.start();
        root.addAppender(logged);
    }

    @AfterEach
    void stopListening() {
        root.detachAppender(logged);
        registry.close();
    }

    @Test
    void everyHostileConnectionIsAnsweredOrClosedAndReadinessIsServedThroughout() throws Exception {
        try (ServiceEndpoints endpoints = ServiceEndpoints.start("fuzz-http", new InetSocketAddress("127.0.0.1", 0), registry,
                readiness)) {
            PortFuzzer fuzz = PortFuzzer.against(endpoints.address(), SEED);
            long start = System.nanoTime();

            PortFuzzer.Counts counts = hostile(fuzz);
            int accepted = fuzz.flood(300, () -> assertThat(probe(endpoints.address())).as("served during the flood")
                    .isEqualTo(200));

            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            assertThat(counts.hung()).as("connections the server left open: %s", counts).isZero();
            assertThat(counts.closed()).isEqualTo(400);
            assertThat(accepted).isPositive();
            assertThat(probe(endpoints.address())).as("served after").isEqualTo(200);
            assertThat(logged.list).as("log lines at INFO or above for 700 hostile connections")
                    .filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.INFO)).hasSizeLessThanOrEqualTo(5);
            assertThat(seconds).as("short enough for every build").isLessThan(15);
            // Measured after the round above: classes, the event loop's buffers and the JIT's first allocations are not
            // kept per connection.
            long kept = PortFuzzer.heapKeptPerConnection(() -> hostile(fuzz).tried() + fuzz.flood(300, () -> { }));
            System.out.printf("ServiceEndpointsFuzzTest: %s, flood 300 (%d accepted), heap kept after GC %d B per connection%n",
                    counts, accepted, kept);
            assertThat(kept).as("heap kept per closed hostile connection").isLessThan(PortFuzzer.HEAP_KEPT_PER_CLOSED_CONNECTION);
        }
    }

    @Test
    void twoHundredSlowClientsNeverKeepReadinessFromAnsweringWithinAProbesTimeout() throws Exception {
        try (ServiceEndpoints endpoints = ServiceEndpoints.start("fuzz-http", new InetSocketAddress("127.0.0.1", 0), registry,
                readiness)) {
            PortFuzzer fuzz = PortFuzzer.against(endpoints.address(), SEED);
            long[] slowest = new long[1];
            int[] probes = new int[1];
            long opened = System.nanoTime();
            // Each slow client sends half a request line, then a byte every 500 ms, never the end of it; probes run
            // until well past the request deadline, so they are measured before it closes the slow clients and after.
            int closed = fuzz.slowClients(200, REQUEST, Duration.ofMillis(500), () -> {
                long until = System.nanoTime() + ServiceEndpoints.REQUEST_TIMEOUT.toNanos() + TimeUnit.SECONDS.toNanos(2);
                while (System.nanoTime() < until) {
                    long asked = System.nanoTime();
                    assertThat(probe(endpoints.address())).as("/readyz with 200 slow clients open").isEqualTo(200);
                    slowest[0] = Math.max(slowest[0], System.nanoTime() - asked);
                    probes[0]++;
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // the probes' pace
                }
            });

            System.out.printf("ServiceEndpointsFuzzTest: 200 slow clients, %d /readyz probes over %d ms, slowest %.1f ms; "
                            + "%d slow clients closed by the server%n", probes[0],
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - opened), slowest[0] / 1e6, closed);
            assertThat(Duration.ofNanos(slowest[0])).as("slowest /readyz of %d", probes[0]).isLessThan(PROBE_TIMEOUT);
            assertThat(closed).as("slow clients closed by the request deadline (%s)", ServiceEndpoints.REQUEST_TIMEOUT)
                    .isEqualTo(200);
        }
    }

    /**
     * {@code GET /readyz} on a connection of its own, as a kubelet probes: connect, ask, read to the end; the status,
     * or -1 when nothing came within the probe's timeout.
     */
    static int probe(InetSocketAddress address) throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(address, (int) PROBE_TIMEOUT.toMillis());
            socket.setSoTimeout((int) PROBE_TIMEOUT.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + ServiceEndpoints.READINESS_PATH + " HTTP/1.1\r\nHost: probe\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            return answer.startsWith("HTTP/1.1 ") ? Integer.parseInt(answer.substring(9, 12)) : -1;
        }
    }

    private static PortFuzzer.Counts hostile(PortFuzzer fuzz) throws Exception {
        return fuzz.randomBytes(200, 4096).plus(fuzz.truncated(REQUEST, 100)).plus(fuzz.prefaceThenGarbage(100));
    }
}
