package io.lanemq.delay;

import java.util.concurrent.TimeUnit;

/**
 * Counts the work cycles of one engine thread so a test can wait until the thread has seen what
 * the test just did (advanced the fake clock, scheduled a record) instead of sleeping.
 */
final class Cycles {

    private long begun;
    private long ended;

    synchronized long begin() {
        return ++begun;
    }

    synchronized void end(long cycle) {
        ended = cycle;
        notifyAll();
    }

    /** Wakes the thread and waits until a cycle that began after this call has ended. */
    synchronized boolean awaitNext(Runnable wake, long timeoutMillis) throws InterruptedException {
        long target = begun + 1;
        wake.run();
        // On System.nanoTime: a real wait, which must end while the test's fake clock stands still.
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (ended < target) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }
}
