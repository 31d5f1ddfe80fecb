package io.lanemq.core.consume.proxy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Gathers one stream's acks into batches: a busy consumer sends one Ack frame per {@code maxBatch}
 * settled deliveries, carrying their credits, instead of an Ack and a CreditGrant per delivery. On a
 * TLS stream every frame flushed costs a record and a system call at both ends, and one proxy serves
 * dozens of consumers, so frames per message decide how far it scales.
 *
 * <p>A batch goes out as soon as one of these holds, so batching never makes a consumer wait:
 * <ul>
 *   <li>it holds {@code maxBatch} ids;</li>
 *   <li>the consumer holds no other delivery: nothing is coming to fill the batch, so a quiet
 *       consumer's acks leave at once (no added latency at low rates);</li>
 *   <li>{@code maxDelay} passed since the batch began: one slow listener does not hold back the acks
 *       of the messages its neighbours finished.</li>
 * </ul>
 * Thread-safe; the sink is called outside the lock, so two batches may reach it in either order
 * (acks are independent of each other).
 */
final class AckBatcher {
    /** Sends one Ack frame that also grants {@code credits}. */
    interface Sink {
        void ack(List<Long> deliveryIds, int credits);
    }

    private final int maxBatch;
    private final long maxDelayNanos;
    private final ScheduledExecutorService timer;
    private final Sink sink;
    /** Guarded by {@code this}. */
    private List<Long> batch = new ArrayList<>();
    private int inHand;
    private boolean flushScheduled;

    AckBatcher(int maxBatch, Duration maxDelay, ScheduledExecutorService timer, Sink sink) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be at least 1, was " + maxBatch);
        }
        this.maxBatch = maxBatch;
        this.maxDelayNanos = maxDelay.toNanos();
        this.timer = timer;
        this.sink = sink;
    }

    /** A delivery reached the consumer; it stays in hand until acked or nacked. */
    synchronized void received() {
        inHand++;
    }

    void acked(long deliveryId) {
        List<Long> ready;
        synchronized (this) {
            inHand--;
            batch.add(deliveryId);
            ready = batch.size() >= maxBatch || inHand <= 0 ? take() : null;
            if (ready == null && !flushScheduled) {
                flushScheduled = schedule();
                if (!flushScheduled) {
                    ready = take();
                }
            }
        }
        send(ready);
    }

    /** A delivery left the consumer's hands without an ack (a nack): the acks gathered so far may be all there is. */
    void settledWithoutAck() {
        boolean idle;
        synchronized (this) {
            inHand--;
            idle = inHand <= 0;
        }
        if (idle) {
            flush();
        }
    }

    /** Sends what is gathered now (on the timer, or before the stream ends). */
    void flush() {
        List<Long> ready;
        synchronized (this) {
            flushScheduled = false;
            ready = take();
        }
        send(ready);
    }

    private boolean schedule() {
        try {
            timer.schedule(this::flush, maxDelayNanos, TimeUnit.NANOSECONDS);
            return true;
        } catch (RejectedExecutionException closing) {
            return false; // the consumer is closing: send at once rather than never
        }
    }

    private List<Long> take() {
        if (batch.isEmpty()) {
            return null;
        }
        List<Long> taken = batch;
        batch = new ArrayList<>(maxBatch);
        return taken;
    }

    private void send(List<Long> ready) {
        if (ready != null) {
            sink.ack(ready, ready.size());
        }
    }
}
