package io.lanemq.service.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class GracefulShutdownTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void readinessIsDrainingBeforeTheStopBeginsAndAQuickStopFinishesWithinTheGrace() {
        Readiness readiness = Readiness.create();
        readiness.serving();
        AtomicReference<Readiness.Phase> seenByStop = new AtomicReference<>();
        AtomicReference<String> stopThread = new AtomicReference<>();

        boolean finished = GracefulShutdown.drain("test-service", readiness, Duration.ZERO, Duration.ofSeconds(30), () -> {
            seenByStop.set(readiness.phase());
            stopThread.set(Thread.currentThread().getName());
        });

        assertThat(finished).isTrue();
        assertThat(seenByStop).as("a rolling update stops sending traffic before the service stops")
                .hasValue(Readiness.Phase.DRAINING);
        assertThat(stopThread).hasValue("test-service-stop");
        assertThat(readiness.health().up()).isFalse();
    }

    @Test
    void readinessAnswersDrainingWhileTheServiceStillServesForTheReadinessDelay() throws Exception {
        Readiness readiness = Readiness.create();
        readiness.serving();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Duration delay = Duration.ofSeconds(3);
        AtomicBoolean serving = new AtomicBoolean(true);
        AtomicLong stoppedAt = new AtomicLong();
        try (ServiceEndpoints endpoints = ServiceEndpoints.start("test-drain", new InetSocketAddress("127.0.0.1", 0), registry,
                readiness)) {
            URI ready = endpoints.metricsUri().resolve(ServiceEndpoints.READINESS_PATH);
            long began = System.nanoTime();
            Thread shutdown = new Thread(() -> GracefulShutdown.drain("test-drain", readiness, delay, Duration.ofSeconds(10),
                    () -> {
                        stoppedAt.set(System.nanoTime());
                        serving.set(false);
                    }), "test-drain-shutdown");
            shutdown.start();

            await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
                HttpResponse<String> answer = get(ready);
                assertThat(answer.statusCode()).isEqualTo(503);
                assertThat(answer.body()).isEqualTo("DRAINING\n");
            });
            assertThat(serving).as("/readyz says DRAINING while the service still serves").isTrue();
            assertThat(get(endpoints.metricsUri()).statusCode()).as("and its endpoints still answer").isEqualTo(200);
            assertThat(System.nanoTime() - began).as("all of it within the delay").isLessThan(delay.toNanos());

            shutdown.join(TimeUnit.SECONDS.toMillis(15));
            assertThat(serving).as("stopped after the delay").isFalse();
            assertThat(Duration.ofNanos(stoppedAt.get() - began)).as("the stop began after the readiness delay")
                    .isGreaterThanOrEqualTo(delay);
        } finally {
            registry.close();
        }
    }

    private static HttpResponse<String> get(URI uri) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(1)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aStopThatOutlastsTheGraceIsLeftBehindSoTheProcessCanExit() throws Exception {
        Readiness readiness = Readiness.create();
        CountDownLatch never = new CountDownLatch(1);
        long start = System.nanoTime();
        try {
            boolean finished = GracefulShutdown.drain("test-stuck", readiness, Duration.ZERO, Duration.ofMillis(200), () -> {
                try {
                    never.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            long tookMs = (System.nanoTime() - start) / 1_000_000;

            assertThat(finished).isFalse();
            assertThat(tookMs).as("returned at the grace period, not when the stop ends").isBetween(150L, 10_000L);
        } finally {
            never.countDown();
        }
    }

    @Test
    void aReadinessDelayOutsideItsBoundsIsRejectedByName() {
        assertThatThrownBy(() -> GracefulShutdown.requireReadinessDelay(Duration.ofSeconds(-1)))
                .hasMessageContaining("readinessDelay").hasMessageContaining("PT-1S");
        assertThatThrownBy(() -> GracefulShutdown.requireReadinessDelay(Duration.ofMinutes(3)))
                .hasMessageContaining("readinessDelay").hasMessageContaining("PT3M");
        assertThat(GracefulShutdown.requireReadinessDelay(Duration.ZERO)).isZero();
    }

    @Test
    void aGraceOutsideItsBoundsIsRejectedByName() {
        assertThatThrownBy(() -> GracefulShutdown.requireGrace(Duration.ofSeconds(-1)))
                .hasMessageContaining("shutdownGrace").hasMessageContaining("PT-1S");
        assertThatThrownBy(() -> GracefulShutdown.requireGrace(Duration.ofHours(1)))
                .hasMessageContaining("shutdownGrace").hasMessageContaining("PT1H");
        assertThat(GracefulShutdown.requireGrace(Duration.ZERO)).isZero();
    }
}
