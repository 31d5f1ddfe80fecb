package io.lanemq.service.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class GracefulShutdownTest {

    @Test
    void readinessIsDrainingBeforeTheStopBeginsAndAQuickStopFinishesWithinTheGrace() {
        Readiness readiness = Readiness.create();
        readiness.serving();
        AtomicReference<Readiness.Phase> seenByStop = new AtomicReference<>();
        AtomicReference<String> stopThread = new AtomicReference<>();

        boolean finished = GracefulShutdown.drain("test-service", readiness, Duration.ofSeconds(30), () -> {
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
    void aStopThatOutlastsTheGraceIsLeftBehindSoTheProcessCanExit() throws Exception {
        Readiness readiness = Readiness.create();
        CountDownLatch never = new CountDownLatch(1);
        long start = System.nanoTime();
        try {
            boolean finished = GracefulShutdown.drain("test-stuck", readiness, Duration.ofMillis(200), () -> {
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
    void aGraceOutsideItsBoundsIsRejectedByName() {
        assertThatThrownBy(() -> GracefulShutdown.requireGrace(Duration.ofSeconds(-1)))
                .hasMessageContaining("shutdownGrace").hasMessageContaining("PT-1S");
        assertThatThrownBy(() -> GracefulShutdown.requireGrace(Duration.ofHours(1)))
                .hasMessageContaining("shutdownGrace").hasMessageContaining("PT1H");
        assertThat(GracefulShutdown.requireGrace(Duration.ZERO)).isZero();
    }
}
