package io.lanemq.failover;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.support.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ConcurrencyTest {

    private static final int THREADS = 4;
    private static final int OPS_PER_THREAD = 200_000;

    @Test
    void hammeringKeepsWeightsInBoundsAndReturnsInFlightToZero() throws Exception {
        FakeClock ticker = new FakeClock();
        ProbingTest.ManualScheduler scheduler = new ProbingTest.ManualScheduler();
        WeightedFailover<String> failover = WeightedFailover.<String>builder()
                .ticker(ticker)
                .probeExecutor(scheduler)
                .callee("a", WeightSpec.of(100))
                .callee("b", WeightSpec.of(100).withMinWeight(5))
                .callee("c", WeightSpec.of(50).withInitialWeight(10))
                .callee("d", WeightSpec.of(200).withPriority(1))
                .build();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
        CountDownLatch start = new CountDownLatch(1);
        AtomicBoolean running = new AtomicBoolean(true);
        List<String> violations = java.util.Collections.synchronizedList(new ArrayList<>());
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                workers.add(pool.submit(() -> {
                    start.await();
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int i = 0; i < OPS_PER_THREAD; i++) {
                        ticker.advance(Duration.ofNanos(10_000));
                        var lease = failover.pick();
                        if (lease.isEmpty()) {
                            failover.checkNow();
                            continue;
                        }
                        int roll = random.nextInt(100);
                        if (roll < 15) {
                            lease.get().onFailure();
                        } else if (roll < 20) {
                            lease.get().onIgnore();
                        } else {
                            lease.get().onSuccessNanos(lease.get().callee().equals("c")
                                    ? 80_000_000 : random.nextLong(1_000_000, 5_000_000));
                        }
                        if (i % 1_000 == 0) {
                            failover.checkNow();
                        }
                    }
                    return null;
                }));
            }
            Future<?> watcher = pool.submit(() -> {
                start.await();
                while (running.get()) {
                    for (CalleeStats<String> s : failover.stats()) {
                        boolean inBounds = s.currentWeight() == 0
                                || (s.currentWeight() >= s.minWeight() && s.currentWeight() <= s.maxWeight());
                        if (!inBounds || s.inFlight() < 0 || s.inFlight() > THREADS) {
                            violations.add(s.toString());
                        }
                    }
                }
                return null;
            });
            start.countDown();
            for (Future<?> worker : workers) {
                worker.get(60, TimeUnit.SECONDS);
            }
            running.set(false);
            watcher.get(10, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
            scheduler.shutdownNow();
        }

        assertThat(violations).isEmpty();
        assertThat(failover.stats()).allSatisfy(s -> {
            assertThat(s.inFlight()).isZero();
            assertThat(s.currentWeight() == 0 || (s.currentWeight() >= s.minWeight()
                    && s.currentWeight() <= s.maxWeight())).as("weight of %s", s).isTrue();
            assertThat(s.down()).isEqualTo(s.currentWeight() == 0);
        });
        assertThat(failover.stats()).filteredOn(s -> s.callee().equals("b"))
                .allSatisfy(s -> assertThat(s.down()).as("min weight keeps b up").isFalse());
    }
}
