package io.lanemq.core.internal.consume.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AckBatcherTest {
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final List<List<Long>> frames = Collections.synchronizedList(new ArrayList<>());
    private final List<Integer> credits = Collections.synchronizedList(new ArrayList<>());

    @AfterEach
    void stopTimer() {
        timer.shutdownNow();
    }

    private AckBatcher batcher(int maxBatch, Duration maxDelay) {
        return batcher(maxBatch, maxDelay, false);
    }

    private AckBatcher batcher(int maxBatch, Duration maxDelay, boolean flushWhenIdle) {
        return new AckBatcher(maxBatch, maxDelay, flushWhenIdle, timer, (ids, granted) -> {
            frames.add(List.copyOf(ids));
            credits.add(granted);
        });
    }

    @Test
    void aBusyConsumerSendsOneFramePerFullBatchWithItsCredits() {
        AckBatcher acks = batcher(4, Duration.ofMinutes(1));
        for (int i = 0; i < 12; i++) {
            acks.received();
        }
        for (long id = 1; id <= 8; id++) {
            acks.acked(id);
        }

        assertThat(frames).containsExactly(List.of(1L, 2L, 3L, 4L), List.of(5L, 6L, 7L, 8L));
        assertThat(credits).containsExactly(4, 4);
    }

    @Test
    void anUnorderedConsumerHoldingNothingElseStillWaitsForItsBatch() {
        AckBatcher acks = batcher(16, Duration.ofMinutes(1));
        acks.received();
        acks.acked(1);

        assertThat(frames).as("the proxy still holds credits for this consumer; the ack waits for company").isEmpty();
        acks.flush();
        assertThat(frames).containsExactly(List.of(1L));
    }

    @Test
    void anOrderedConsumerHoldingNothingElseAcksAtOnce() {
        AckBatcher acks = batcher(16, Duration.ofMinutes(1), true);
        acks.received();
        acks.acked(1);
        acks.received();
        acks.received();
        acks.acked(2);
        assertThat(frames).as("3 still in hand").containsExactly(List.of(1L));

        acks.acked(3);
        assertThat(frames).containsExactly(List.of(1L), List.of(2L, 3L));
    }

    @Test
    void aPartialBatchLeavesAfterTheMaximumDelay() {
        AckBatcher acks = batcher(16, Duration.ofMillis(20));
        acks.received();
        acks.received();
        acks.acked(7);

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(frames).containsExactly(List.of(7L)));
        assertThat(credits).containsExactly(1);
    }

    @Test
    void aNackThatEmptiesAnOrderedConsumersHandsSendsTheGatheredAcks() {
        AckBatcher acks = batcher(16, Duration.ofMinutes(1), true);
        acks.received();
        acks.received();
        acks.acked(1);
        assertThat(frames).isEmpty();

        acks.settledWithoutAck();
        assertThat(frames).containsExactly(List.of(1L));
    }

    @Test
    void whenTheTimerIsGoneAcksAreSentAtOnceRatherThanNever() {
        timer.shutdownNow();
        AckBatcher acks = batcher(16, Duration.ofMinutes(1));
        acks.received();
        acks.received();
        acks.acked(5);

        assertThat(frames).containsExactly(List.of(5L));
    }

    @Test
    void concurrentAcksAreEachSentExactlyOnce() throws InterruptedException {
        AckBatcher acks = batcher(8, Duration.ofMillis(2));
        int threads = 4;
        int perThread = 5_000;
        for (int i = 0; i < threads * perThread; i++) {
            acks.received();
        }
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            long base = (long) t * perThread;
            new Thread(() -> {
                for (long id = base; id < base + perThread; id++) {
                    acks.acked(id);
                }
                done.countDown();
            }).start();
        }
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        // The last, partial batch leaves on the timer.
        await().atMost(Duration.ofSeconds(5)).until(() -> credits.stream().mapToInt(Integer::intValue).sum() == threads * perThread);

        List<Long> all = new ArrayList<>();
        synchronized (frames) {
            frames.forEach(all::addAll);
        }
        assertThat(all).hasSize(threads * perThread).doesNotHaveDuplicates();
        assertThat(credits.stream().mapToInt(Integer::intValue).sum()).isEqualTo(threads * perThread);
        assertThat(frames.size()).as("batched: full batches of 8, and a few partial ones the timer sent").isLessThanOrEqualTo(threads * perThread / 4);
    }
}
