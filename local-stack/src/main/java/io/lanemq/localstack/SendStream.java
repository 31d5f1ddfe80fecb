package io.lanemq.localstack;

import io.lanemq.api.Message;
import io.lanemq.api.Producer;
import io.lanemq.api.SendResult;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * A steady stream of sends through the async API at a fixed rate, recording every send's start
 * time and outcome, so fault tests and benchmarks can ask "which share of the sends started in
 * this window succeeded, and on which cluster". Starts sending on construction, on its own thread.
 */
public final class SendStream implements AutoCloseable {
    /** One send: when it started (nanos since the stream began), where it landed, whether it was acknowledged. */
    public record Outcome(long startNanos, long endNanos, String cluster, String messageId, boolean acknowledged) {
    }

    private final Producer producer;
    private final String logicTopic;
    private final int ratePerSecond;
    private final ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong issued = new AtomicLong();
    private final long origin = System.nanoTime();
    private final Thread thread;

    public SendStream(Producer producer, String logicTopic, int ratePerSecond) {
        this.producer = producer;
        this.logicTopic = logicTopic;
        this.ratePerSecond = ratePerSecond;
        this.thread = new Thread(this::run, "lanemq-send-stream-" + logicTopic);
        this.thread.start();
    }

    public long nowNanos() {
        return System.nanoTime() - origin;
    }

    private void run() {
        long interval = TimeUnit.SECONDS.toNanos(1) / ratePerSecond;
        long next = System.nanoTime();
        for (long seq = 0; running.get(); seq++) {
            long start = nowNanos();
            Message message = Message.builder(logicTopic).keys("s" + seq)
                    .body(("paced-" + seq).getBytes(StandardCharsets.UTF_8)).build();
            issued.incrementAndGet();
            producer.sendAsync(message).whenComplete((SendResult result, Throwable failure) -> outcomes.add(failure == null
                    ? new Outcome(start, nowNanos(), result.cluster(), result.messageId(), true)
                    : new Outcome(start, nowNanos(), null, null, false)));
            next += interval;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait); // pacing the stream, not waiting for an outcome
            }
        }
    }

    /** Outcomes of sends started in [fromNanos, toNanos). */
    public List<Outcome> startedBetween(long fromNanos, long toNanos) {
        return outcomes.stream().filter(o -> o.startNanos() >= fromNanos && o.startNanos() < toNanos).collect(Collectors.toList());
    }

    public List<Outcome> all() {
        return List.copyOf(outcomes);
    }

    /** True once every send issued so far has an outcome. */
    public boolean settled() {
        return outcomes.size() >= issued.get();
    }

    /** Message ids of every acknowledged send. */
    public Set<String> acknowledgedIds() {
        return outcomes.stream().filter(Outcome::acknowledged).map(Outcome::messageId).collect(Collectors.toSet());
    }

    public static double successRate(List<Outcome> outcomes) {
        return outcomes.isEmpty() ? 1.0 : outcomes.stream().filter(Outcome::acknowledged).count() / (double) outcomes.size();
    }

    public static double shareOf(List<Outcome> outcomes, String cluster) {
        List<Outcome> acked = outcomes.stream().filter(Outcome::acknowledged).toList();
        return acked.isEmpty() ? 0 : acked.stream().filter(o -> cluster.equals(o.cluster())).count() / (double) acked.size();
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join(); // idempotent: joining a finished thread returns at once
    }
}
