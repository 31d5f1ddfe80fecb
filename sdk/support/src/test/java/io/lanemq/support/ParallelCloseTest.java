package io.lanemq.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ParallelCloseTest {

    @Test
    void everyCloserRunsAtTheSameTime() {
        // Each closer waits for all three to have started: closed one after another, the first would wait in vain.
        CountDownLatch started = new CountDownLatch(3);
        AtomicInteger metTheOthers = new AtomicInteger();
        Runnable closer = () -> {
            started.countDown();
            try {
                if (started.await(10, TimeUnit.SECONDS)) {
                    metTheOthers.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };

        ParallelClose.all("test-close", List.of(closer, closer, closer));

        assertThat(metTheOthers).hasValue(3);
    }

    @Test
    void aFailingCloserDoesNotStopTheOthersAndIsRethrownWithTheRest() {
        AtomicInteger closed = new AtomicInteger();
        Runnable fine = closed::incrementAndGet;
        Runnable first = () -> {
            throw new IllegalStateException("cluster-a refused");
        };
        Runnable second = () -> {
            throw new IllegalStateException("cluster-c refused");
        };

        assertThatThrownBy(() -> ParallelClose.all("test-close", List.of(first, fine, second, fine)))
                .hasMessage("cluster-a refused")
                .satisfies(e -> assertThat(e.getSuppressed()).extracting(Throwable::getMessage).containsExactly("cluster-c refused"));
        assertThat(closed).hasValue(2);
    }

    @Test
    void nothingToCloseReturns() {
        ParallelClose.all("test-close", List.of());
    }
}
