package io.lanemq.core.internal.consume.proxy;

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
 * <p>A batch goes out as soon as one of these holds:
 * <ul>
 *   <li>it holds {@code maxBatch} ids;</li>
 *   <li>{@code maxDelay} passed since the batch began: one slow listener does not hold back the acks
 *       of the messages its neighbours finished, and a quiet consumer's acks are late by that much
 *       at most;</li>
 *   <li>with {@code flushWhenIdle}, the consumer holds no other delivery. An ordered subscription
 *       needs that: the proxy pushes a key's next message only once the previous one is acked, so
 *       there an ack's delay is the next message's delay.</li>
 * </ul>
 * Holding acks costs an unordered consumer nothing: while a batch fills, the proxy still holds
 * credits for at least {@code credits - maxBatch} deliveries. Sending each ack alone as soon as the
 * consumer is idle would be worse than it looks: under load the proxy then pushes one delivery per
 * credit returned, frames multiply, round trips lengthen, and the consumer is idle more often.
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
    private final boolean flushWhenIdle;
    private final ScheduledExecutorService timer;
    private final Sink sink;
    /** Guarded by {@code this}. */
    private List<Long> batch = new ArrayList<>();
    private int inHand;
    private boolean flushScheduled;

    AckBatcher(int maxBatch, Duration maxDelay, boolean flushWhenIdle, ScheduledExecutorService timer, Sink sink) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be at least 1, was " + maxBatch);
        }
        this.maxBatch = maxBatch;
        this.maxDelayNanos = maxDelay.toNanos();
        this.flushWhenIdle = flushWhenIdle;
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
            ready = batch.size() >= maxBatch || idle() ? take() : null;
            if (ready == null && !flushScheduled) {
                flushScheduled = schedule();
                if (!flushScheduled) {
                    ready = take();
                }
            }
        }
        send(ready);
    }

    /** A delivery left the consumer's hands without an ack (a nack). */
    void settledWithoutAck() {
        boolean idle;
        synchronized (this) {
            inHand--;
            idle = idle();
        }
        if (idle) {
            flush();
        }
    }

    private boolean idle() {
        return flushWhenIdle && inHand <= 0;
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
