package io.lanemq.benchmarks.proxy;

import io.lanemq.api.Message;
import io.lanemq.api.Producer;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Async sends of fixed-size bodies on the calling thread: as fast as a bounded window of unacknowledged
 * sends allows (to preload a backlog), or paced at a fixed rate with the send time in
 * {@link #SENT_NANOS} (to measure end-to-end latency; the consumers run in the same JVM, so
 * {@link System#nanoTime()} is comparable).
 */
final class PacedSender {
    /** Message property holding {@link System#nanoTime()} just before the send. */
    static final String SENT_NANOS = "bench-sent-nanos";
    private static final int WINDOW = 2_000;

    private final Producer producer;
    private final String logicTopic;
    private final byte[] body;
    private final Semaphore window = new Semaphore(WINDOW);
    private final AtomicLong failed = new AtomicLong();

    PacedSender(Producer producer, String logicTopic, int bodyBytes) {
        this.producer = producer;
        this.logicTopic = logicTopic;
        this.body = new byte[bodyBytes];
    }

    /** Sends {@code count} messages as fast as the window allows and waits for every outcome. */
    void sendBacklog(long count) throws InterruptedException {
        for (long i = 0; i < count; i++) {
            send(Message.builder(logicTopic).body(body).build());
        }
        awaitOutcomes();
    }

    /** Sends at {@code ratePerSecond} for {@code seconds}, each message stamped with its send time; returns how many. */
    long sendPaced(int ratePerSecond, int seconds) throws InterruptedException {
        long interval = TimeUnit.SECONDS.toNanos(1) / ratePerSecond;
        long count = (long) ratePerSecond * seconds;
        long next = System.nanoTime();
        for (long i = 0; i < count; i++) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait); // pacing the stream
            }
            send(Message.builder(logicTopic).body(body).property(SENT_NANOS, Long.toString(System.nanoTime())).build());
            next += interval;
        }
        awaitOutcomes();
        return count;
    }

    /** Sends that failed so far. */
    long failed() {
        return failed.get();
    }

    private void send(Message message) throws InterruptedException {
        window.acquire();
        producer.sendAsync(message).whenComplete((result, failure) -> {
            if (failure != null) {
                failed.incrementAndGet();
            }
            window.release();
        });
    }

    private void awaitOutcomes() throws InterruptedException {
        window.acquire(WINDOW);
        window.release(WINDOW);
    }
}
