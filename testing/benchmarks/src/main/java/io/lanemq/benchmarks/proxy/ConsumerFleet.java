package io.lanemq.benchmarks.proxy;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Consumer;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.MessagingException;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.Subscription;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * N consumers of one group, each its own {@link MessagingClient} (as N application instances would be),
 * counting what each received, the distinct messages of the whole group, the first and last receipt,
 * and the end-to-end latency of messages carrying {@link PacedSender#SENT_NANOS}.
 */
final class ConsumerFleet implements AutoCloseable {
    interface ClientFactory {
        MessagingClient create() throws MessagingException;
    }

    private final List<MessagingClient> clients = new ArrayList<>();
    private final List<Consumer> consumers = new ArrayList<>();
    private final LongAdder[] perConsumer;
    private final Set<String> distinct = ConcurrentHashMap.newKeySet();
    private final AtomicLong firstReceipt = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong lastReceipt = new AtomicLong();
    private final LatencyRecorder latency = new LatencyRecorder();

    private ConsumerFleet(int size) {
        perConsumer = new LongAdder[size];
        for (int i = 0; i < size; i++) {
            perConsumer[i] = new LongAdder();
        }
    }

    static ConsumerFleet subscribe(int size, ClientFactory factory, String logicTopic, String group) throws MessagingException {
        ConsumerFleet fleet = new ConsumerFleet(size);
        try {
            for (int i = 0; i < size; i++) {
                fleet.clients.add(factory.create());
            }
            // Clients first, subscriptions in a quick second pass: a backlog is then shared from nearly the same moment.
            for (int i = 0; i < size; i++) {
                int index = i;
                fleet.consumers.add(fleet.clients.get(i).subscribe(Subscription.builder(logicTopic, group).build(),
                        message -> fleet.received(index, message)));
            }
            return fleet;
        } catch (MessagingException | RuntimeException e) {
            fleet.close();
            throw e;
        }
    }

    private ConsumeResult received(int consumer, ReceivedMessage message) {
        long now = System.nanoTime();
        firstReceipt.compareAndSet(Long.MAX_VALUE, now);
        lastReceipt.accumulateAndGet(now, Math::max);
        perConsumer[consumer].increment();
        distinct.add(message.messageId());
        String sentNanos = message.properties().get(PacedSender.SENT_NANOS);
        if (sentNanos != null) {
            latency.record(now - Long.parseLong(sentNanos));
        }
        return ConsumeResult.SUCCESS;
    }

    /** Waits until the group received {@code count} distinct messages; false when {@code timeoutNanos} passed first. */
    boolean awaitDistinct(long count, long timeoutNanos) {
        return awaitAtLeast(distinct::size, count, timeoutNanos);
    }

    /** Waits until {@code count} messages stamped with their send time arrived; false when {@code timeoutNanos} passed first. */
    boolean awaitLatencySamples(long count, long timeoutNanos) {
        return awaitAtLeast(latency::count, count, timeoutNanos);
    }

    private static boolean awaitAtLeast(LongSupplier progress, long count, long timeoutNanos) {
        long deadline = System.nanoTime() + timeoutNanos;
        while (progress.getAsLong() < count) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            LockSupport.parkNanos(10_000_000); // polling the consumers' progress, as a benchmark, not a test
        }
        return true;
    }

    long distinctCount() {
        return distinct.size();
    }

    /** Deliveries to all consumers, duplicates included. */
    long deliveries() {
        long sum = 0;
        for (LongAdder count : perConsumer) {
            sum += count.sum();
        }
        return sum;
    }

    /**
     * Where the fleet stood when its measurement began: the start-up (connections, the JIT compiling
     * the path's code) stays out of what is measured.
     */
    record Mark(long nanos, long distinct, long[] perConsumer) {
    }

    /**
     * Waits until the fleet received {@code warmup} distinct messages and {@code ready} holds (every
     * consumer connected, say), then marks where it stands; a fleet that drains first is marked at its
     * start, so what follows measures the whole drain.
     */
    Mark markAfter(long warmup, BooleanSupplier ready, long total, long timeoutNanos) {
        long deadline = System.nanoTime() + timeoutNanos;
        while ((distinct.size() < warmup || !ready.getAsBoolean()) && distinct.size() < total && System.nanoTime() < deadline) {
            LockSupport.parkNanos(1_000_000);
        }
        if (distinct.size() >= total) {
            return new Mark(firstReceipt.get(), 0, new long[perConsumer.length]);
        }
        return new Mark(System.nanoTime(), distinct.size(), perConsumerCounts());
    }

    /**
     * Distinct messages per second from the mark to {@code endNanos}: the last receipt of a drain that completed, the
     * moment the wait gave up on one that did not (so a stall counts in the time, not only the messages before it).
     */
    double rateSince(Mark mark, long endNanos) {
        return perSecond(distinct.size() - mark.distinct(), mark.nanos(), endNanos);
    }

    /** The last receipt's {@link System#nanoTime()}. */
    long lastReceiptNanos() {
        return lastReceipt.get();
    }

    static double perSecond(long messages, long fromNanos, long toNanos) {
        double seconds = (toNanos - fromNanos) / 1e9;
        return seconds <= 0 ? 0 : messages / seconds;
    }

    /** How many deliveries each consumer got since the mark, in subscription order. */
    long[] countsSince(Mark mark) {
        long[] counts = perConsumerCounts();
        for (int i = 0; i < counts.length; i++) {
            counts[i] -= mark.perConsumer()[i];
        }
        return counts;
    }

    private long[] perConsumerCounts() {
        long[] counts = new long[perConsumer.length];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = perConsumer[i].sum();
        }
        return counts;
    }

    LatencyRecorder latency() {
        return latency;
    }

    @Override
    public void close() {
        for (Consumer consumer : consumers) {
            closeQuietly(consumer);
        }
        for (MessagingClient client : clients) {
            closeQuietly(client);
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            System.err.println("closing " + closeable + " failed: " + e);
        }
    }
}
