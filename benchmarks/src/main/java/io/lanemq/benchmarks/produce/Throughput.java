package io.lanemq.benchmarks.produce;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/** Runs a send loop on N threads for a fixed time and reports successful sends per second. */
public final class Throughput {
    private Throughput() {
    }

    /** Successful sends of a run and its wall time. */
    public record Run(long sent, long nanos) {
        public double rate() {
            return sent / (nanos / 1e9);
        }
    }

    public static double measure(SendLoop loop, int threads, int seconds) throws InterruptedException {
        return run(loop, threads, seconds).rate();
    }

    public static Run run(SendLoop loop, int threads, int seconds) throws InterruptedException {
        LongAdder sent = new LongAdder();
        AtomicReference<Exception> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(threads);
        long start = System.nanoTime();
        long end = start + seconds * 1_000_000_000L;
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                try {
                    while (System.nanoTime() < end && failure.get() == null) {
                        loop.sendOne();
                        sent.increment();
                    }
                } catch (Exception e) {
                    failure.compareAndSet(null, e);
                } finally {
                    done.countDown();
                }
            }, "bench-sender-" + t);
            thread.start();
        }
        done.await();
        if (failure.get() != null) {
            throw new IllegalStateException("a send failed during the benchmark", failure.get());
        }
        return new Run(sent.sum(), System.nanoTime() - start);
    }
}
