package io.lanemq.benchmarks.produce;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
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

    /**
     * Keeps {@code inFlight} asynchronous sends outstanding for {@code seconds}, then waits for the last ones (up to
     * 30 s): the rate counts every send started, over the time until the last was answered, so none still in flight
     * is left out. A failed send fails the run.
     */
    public static Run runAsync(AsyncSend send, int inFlight, int seconds) throws InterruptedException {
        Semaphore slots = new Semaphore(inFlight);
        LongAdder answered = new LongAdder();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long start = System.nanoTime();
        long end = start + seconds * 1_000_000_000L;
        long started = 0;
        while (System.nanoTime() < end && failure.get() == null) {
            slots.acquire();
            started++;
            send.start().whenComplete((result, error) -> {
                if (error != null) {
                    failure.compareAndSet(null, error);
                } else {
                    answered.increment();
                }
                slots.release();
            });
        }
        if (!slots.tryAcquire(inFlight, 30, TimeUnit.SECONDS)) {
            throw new IllegalStateException((started - answered.sum()) + " async sends still unanswered 30 s after the run");
        }
        if (failure.get() != null) {
            throw new IllegalStateException("an async send failed during the benchmark", failure.get());
        }
        return new Run(started, System.nanoTime() - start);
    }
}
