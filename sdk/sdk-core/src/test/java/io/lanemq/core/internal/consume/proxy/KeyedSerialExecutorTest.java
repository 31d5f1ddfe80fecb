package io.lanemq.core.internal.consume.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class KeyedSerialExecutorTest {
    private final ExecutorService threads = Executors.newFixedThreadPool(4);
    private final KeyedSerialExecutor executor = new KeyedSerialExecutor(threads);

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    @Test
    void runsEachKeysTasksOneAtATimeInSubmissionOrder() {
        Map<String, List<Integer>> seen = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
        AtomicInteger overlaps = new AtomicInteger();
        for (int i = 0; i < 400; i++) {
            String key = "k" + (i % 4);
            int sequence = i;
            executor.execute(key, () -> {
                if (running.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet() > 1) {
                    overlaps.incrementAndGet();
                }
                seen.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>()).add(sequence);
                running.get(key).decrementAndGet();
            });
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> seen.values().stream().mapToInt(List::size).sum() == 400);
        assertThat(overlaps).hasValue(0);
        seen.values().forEach(sequence -> assertThat(sequence).isSorted().hasSize(100));
    }

    @Test
    void aBusyKeyDoesNotHoldBackOtherKeysAndAFailedTaskDoesNotStopItsKey() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch otherRan = new CountDownLatch(1);
        CountDownLatch afterFailure = new CountDownLatch(1);
        executor.execute("slow", () -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        executor.execute("other", otherRan::countDown);
        assertThat(otherRan.await(10, TimeUnit.SECONDS)).isTrue();

        executor.execute("slow", () -> {
            throw new IllegalStateException("simulated listener bug");
        });
        executor.execute("slow", afterFailure::countDown);
        release.countDown();
        assertThat(afterFailure.await(10, TimeUnit.SECONDS)).isTrue();
    }
}
