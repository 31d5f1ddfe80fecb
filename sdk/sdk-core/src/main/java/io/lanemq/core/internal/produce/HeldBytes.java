package io.lanemq.core.internal.produce;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The body bytes a producer holds in sends not answered yet (gathered, in flight, or waiting for a failover),
 * against {@code maxHeldBytes}: the back-pressure that keeps a producer whose clusters are slow from growing
 * without bound. A send that finds no room waits for some, up to its send timeout.
 *
 * <p>Not a {@link java.util.concurrent.Semaphore}: the limit comes from the live configuration at each send, so a
 * reload changes it for the next send, where a semaphore's permits are fixed when it is made.
 */
final class HeldBytes {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition room = lock.newCondition();
    // Guarded by lock.
    private long held;

    /**
     * Takes {@code bytes} once they fit under {@code limit}, waiting up to {@code timeoutNanos}; a message larger
     * than the limit alone goes once nothing else is held. Returns false when no room came in time.
     */
    boolean acquire(long bytes, long limit, long timeoutNanos) throws InterruptedException {
        lock.lock();
        try {
            long left = timeoutNanos;
            while (held > 0 && held + bytes > limit) {
                if (left <= 0) {
                    return false;
                }
                left = room.awaitNanos(left);
            }
            held += bytes;
            return true;
        } finally {
            lock.unlock();
        }
    }

    void release(long bytes) {
        lock.lock();
        try {
            held -= bytes;
            room.signalAll();
        } finally {
            lock.unlock();
        }
    }

    long held() {
        lock.lock();
        try {
            return held;
        } finally {
            lock.unlock();
        }
    }
}
