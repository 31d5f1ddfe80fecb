package io.lanemq.e2e;

import io.lanemq.api.Lane;
import io.lanemq.api.Message;
import io.lanemq.api.MessageContext;
import io.lanemq.api.Producer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A steady stream of sends at a fixed rate per lane, alternating one message in {@code lane} and one in
 * the base, each with a unique key ({@code <lane>-<n>}, {@code base-<n>}), sent asynchronously on its own
 * thread. A key counts as sent once the broker acknowledged it; the send instant is kept, so a test can ask
 * what was sent before or after an event. Unlike {@link io.lanemq.localstack.SendStream}, it stamps lanes.
 */
final class TwoLaneSender implements AutoCloseable {
    /** An acknowledged send: its lane (empty: the base) and when it started, in {@link System#nanoTime()}. */
    record Sent(Optional<Lane> lane, long startNanos) {
    }

    private final Producer producer;
    private final String logicTopic;
    private final Lane lane;
    private final long intervalNanos;
    private final Map<String, Sent> acknowledged = new ConcurrentHashMap<>();
    private final AtomicLong issued = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;

    TwoLaneSender(Producer producer, String logicTopic, Lane lane, int ratePerLanePerSecond) {
        this.producer = producer;
        this.logicTopic = logicTopic;
        this.lane = lane;
        this.intervalNanos = TimeUnit.SECONDS.toNanos(1) / ratePerLanePerSecond;
        this.thread = new Thread(this::run, "two-lane-sender-" + logicTopic);
        this.thread.start();
    }

    private void run() {
        MessageContext inLane = MessageContext.none().withLane(lane);
        long next = System.nanoTime();
        for (long seq = 0; running.get(); seq++) {
            send(inLane, lane.path() + "-" + seq);
            send(MessageContext.none(), "base-" + seq);
            next += intervalNanos;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait); // pacing the stream, not waiting for an outcome
            }
        }
    }

    private void send(MessageContext context, String key) {
        long start = System.nanoTime();
        Message message = Message.builder(logicTopic).keys(key).body(key.getBytes(StandardCharsets.UTF_8)).build();
        issued.incrementAndGet();
        try (MessageContext.Scope ignored = context.enter()) {
            // The lane is stamped here, on this thread; the send completes on another.
            producer.sendAsync(message).whenComplete((result, failure) -> {
                if (failure == null) {
                    acknowledged.put(key, new Sent(context.lane(), start));
                } else {
                    failed.incrementAndGet();
                }
            });
        }
    }

    /** Every acknowledged key so far, with its lane and start instant. */
    Map<String, Sent> acknowledged() {
        return Map.copyOf(acknowledged);
    }

    /** Sends whose future failed: the message may or may not be stored, so they count neither as sent nor as lost. */
    long failed() {
        return failed.get();
    }

    /** True once every send issued so far has an outcome. */
    boolean settled() {
        return acknowledged.size() + failed.get() >= issued.get();
    }

    /** Stops sending; sends in flight still complete. */
    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join();
    }
}
