package io.lanemq.benchmarks.broker;

import io.lanemq.benchmarks.cpu.CpuMeter;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;

/**
 * The client side of each P7 measurement, with raw RocketMQ clients: sync sends from N threads, async sends with
 * a bounded number in flight, and a push consumer draining a backlog. Each returns a {@link Sample} over exactly
 * its measured window, CPU read with {@code cpu} at both ends.
 */
final class Workloads {
    // How often a drain checks its count: a fraction of a drain that takes a second or more.
    private static final long CHECK_MILLIS = 5;

    private Workloads() {
    }

    /** Sync sends from {@code threads} threads for {@code seconds}. */
    static Sample syncForSeconds(DefaultMQProducer producer, String topic, byte[] body, int threads, int seconds,
                                 Supplier<CpuMeter.Reading> cpu) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        return sync(producer, topic, body, threads, () -> System.nanoTime() - end < 0, Long.MAX_VALUE, cpu);
    }

    /** Sync sends from {@code threads} threads until {@code count} messages are stored. */
    static Sample syncCount(DefaultMQProducer producer, String topic, byte[] body, int threads, long count,
                            Supplier<CpuMeter.Reading> cpu) throws InterruptedException {
        return sync(producer, topic, body, threads, () -> true, count, cpu);
    }

    private static Sample sync(DefaultMQProducer producer, String topic, byte[] body, int threads, BooleanSupplier go,
                               long count, Supplier<CpuMeter.Reading> cpu) throws InterruptedException {
        AtomicLong tickets = new AtomicLong(count);
        AtomicLong stored = new AtomicLong();
        AtomicReference<Exception> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(threads);
        CpuMeter.Reading began = cpu.get();
        for (int t = 0; t < threads; t++) {
            Thread sender = new Thread(() -> {
                try {
                    while (failure.get() == null && go.getAsBoolean() && tickets.getAndDecrement() > 0) {
                        sendOk(producer, topic, body);
                        stored.incrementAndGet();
                    }
                } catch (Exception e) {
                    failure.compareAndSet(null, e);
                } finally {
                    done.countDown();
                }
            }, "bench-p7-sender-" + t);
            sender.start();
        }
        done.await();
        CpuMeter.Usage usage = cpu.get().since(began);
        if (failure.get() != null) {
            throw new IllegalStateException("a sync send to " + topic + " failed", failure.get());
        }
        return Sample.of(stored.get(), usage);
    }

    /** Async sends, at most {@code inFlight} unanswered, for {@code seconds}; counts the answered ones. */
    static Sample asyncForSeconds(DefaultMQProducer producer, String topic, byte[] body, int inFlight, int seconds,
                                  Supplier<CpuMeter.Reading> cpu) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        CpuMeter.Reading began = cpu.get();
        long stored = async(producer, topic, body, inFlight, () -> System.nanoTime() - end < 0, Long.MAX_VALUE);
        return Sample.of(stored, cpu.get().since(began));
    }

    /** Async sends until {@code count} are stored: fills a backlog, not measured. */
    static void asyncCount(DefaultMQProducer producer, String topic, byte[] body, int inFlight, long count)
            throws InterruptedException {
        async(producer, topic, body, inFlight, () -> true, count);
    }

    private static long async(DefaultMQProducer producer, String topic, byte[] body, int inFlight,
                              BooleanSupplier go, long count) throws InterruptedException {
        Semaphore permits = new Semaphore(inFlight);
        AtomicLong stored = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        SendCallback callback = new SendCallback() {
            @Override
            public void onSuccess(SendResult result) {
                if (result.getSendStatus() == SendStatus.SEND_OK) {
                    stored.incrementAndGet();
                } else {
                    failure.compareAndSet(null, new IllegalStateException("async send " + result.getSendStatus()));
                }
                permits.release();
            }

            @Override
            public void onException(Throwable e) {
                failure.compareAndSet(null, e);
                permits.release();
            }
        };
        long issued = 0;
        while (issued < count && failure.get() == null && go.getAsBoolean()) {
            permits.acquire();
            try {
                producer.send(new Message(topic, body), callback, producer.getSendMsgTimeout());
            } catch (Exception e) {
                failure.compareAndSet(null, e);
                permits.release();
            }
            issued++;
        }
        // Every answer, late ones included, before the window closes.
        permits.acquire(inFlight);
        if (failure.get() != null) {
            throw new IllegalStateException("an async send to " + topic + " failed", failure.get());
        }
        return stored.get();
    }

    /**
     * Waits until a consumer's listener counted {@code expected} messages. The window opens once the first message
     * arrived, so the group's first rebalance is not counted; the messages counted by then are left out with it.
     */
    static Sample drain(AtomicLong received, long expected, Duration timeout, Supplier<CpuMeter.Reading> cpu)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        awaitCount(received, 1, deadline, expected);
        CpuMeter.Reading opened = cpu.get();
        long atOpening = received.get();
        awaitCount(received, expected, deadline, expected);
        return Sample.of(expected - atOpening, cpu.get().since(opened));
    }

    private static void awaitCount(AtomicLong received, long count, long deadline, long expected)
            throws InterruptedException {
        while (received.get() < count) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("drained " + received.get() + " of " + expected + " messages in time");
            }
            TimeUnit.MILLISECONDS.sleep(CHECK_MILLIS);
        }
    }

    private static void sendOk(DefaultMQProducer producer, String topic, byte[] body) throws Exception {
        SendStatus status = producer.send(new Message(topic, body)).getSendStatus();
        if (status != SendStatus.SEND_OK) {
            throw new IllegalStateException("sync send to " + topic + ": " + status);
        }
    }
}
