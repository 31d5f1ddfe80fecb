package io.lanemq.benchmarks.delay;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * How far from its due time each message of one kind arrived (the absolute difference: early counts as much as late),
 * with early, duplicate arrivals and failed sends counted. Thread-safe.
 */
final class DeliveryErrors {

    private final String name;
    private final Histogram errors = new Histogram(3_600_000L, 3);
    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final AtomicLong early = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private final AtomicLong failedSends = new AtomicLong();
    private volatile boolean recording;

    DeliveryErrors(String name) {
        this.name = name;
    }

    /** Warm-up arrivals before this are not counted. */
    void startRecording() {
        recording = true;
    }

    void arrived(String key, long dueAtMillis, long atMillis) {
        if (!recording) {
            return;
        }
        if (!seen.add(key)) {
            duplicates.incrementAndGet();
            return;
        }
        long error = atMillis - dueAtMillis;
        if (error < 0) {
            early.incrementAndGet();
        }
        synchronized (errors) {
            // Absolute: a message delivered 30 ms early is 30 ms off, not on time.
            errors.recordValue(Math.abs(error));
        }
    }

    void sendFailed(Throwable e) {
        if (failedSends.incrementAndGet() <= 3) {
            System.out.println("  " + name + " send failed: " + e);
        }
    }

    /** Forgets the warm-up. */
    void reset() {
        seen.clear();
        early.set(0);
        duplicates.set(0);
        synchronized (errors) {
            errors.reset();
        }
    }

    String name() {
        return name;
    }

    int distinct() {
        return seen.size();
    }

    long early() {
        return early.get();
    }

    long failedSends() {
        return failedSends.get();
    }

    double percentile(double p) {
        synchronized (errors) {
            return errors.getValueAtPercentile(p);
        }
    }

    String summary(int sent) {
        synchronized (errors) {
            return String.format("%-14s arrived %d/%d, p50 %d ms, p99 %d ms, max %d ms, early %d, duplicates %d, "
                    + "failed sends %d", name, seen.size(), sent, errors.getValueAtPercentile(50),
                    errors.getValueAtPercentile(99), errors.getMaxValue(), early.get(), duplicates.get(), failedSends.get());
        }
    }
}
