package io.lanemq.localstack;

import io.lanemq.api.Message;
import io.lanemq.api.Producer;
import io.lanemq.api.SendResult;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * A steady stream of sends through the async API at a fixed rate, each recorded in a {@link SendLog} when it
 * starts, so fault tests and benchmarks can ask "which share of the sends started in this window succeeded,
 * and on which cluster", counting the ones still in flight. Starts sending on construction, on its own thread.
 * {@link SyncSenders} is the same for a pool of blocking callers.
 */
public final class SendStream implements AutoCloseable {
    private final Producer producer;
    private final String logicTopic;
    private final int ratePerSecond;
    private final SendLog log = new SendLog();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;

    public SendStream(Producer producer, String logicTopic, int ratePerSecond) {
        this.producer = producer;
        this.logicTopic = logicTopic;
        this.ratePerSecond = ratePerSecond;
        this.thread = new Thread(this::run, "lanemq-send-stream-" + logicTopic);
        this.thread.start();
    }

    public SendLog log() {
        return log;
    }

    public long nowNanos() {
        return log.nowNanos();
    }

    private void run() {
        long interval = TimeUnit.SECONDS.toNanos(1) / ratePerSecond;
        long next = System.nanoTime();
        for (long seq = 0; running.get(); seq++) {
            Message message = Message.builder(logicTopic).keys("s" + seq)
                    .body(("paced-" + seq).getBytes(StandardCharsets.UTF_8)).build();
            SendLog.Send send = log.started();
            producer.sendAsync(message).whenComplete((SendResult result, Throwable failure) -> {
                if (failure == null) {
                    send.acknowledged(result.cluster(), result.messageId());
                } else {
                    send.failed();
                }
            });
            next += interval;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait); // pacing the stream, not waiting for an outcome
            }
        }
    }

    /** Outcomes of sends started in [fromNanos, toNanos), in flight ones included. */
    public List<SendOutcome> startedBetween(long fromNanos, long toNanos) {
        return log.startedBetween(fromNanos, toNanos);
    }

    public List<SendOutcome> all() {
        return log.all();
    }

    /** True once every send issued so far has an outcome. */
    public boolean settled() {
        return log.settled();
    }

    /** Message ids of every acknowledged send. */
    public Set<String> acknowledgedIds() {
        return log.acknowledgedIds();
    }

    /** See {@link SendLog#successRate}: in-flight sends count against it, and an empty window is 0. */
    public static double successRate(List<SendOutcome> outcomes) {
        return SendLog.successRate(outcomes);
    }

    public static double shareOf(List<SendOutcome> outcomes, String cluster) {
        return SendLog.shareOf(outcomes, cluster);
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join(); // idempotent: joining a finished thread returns at once
    }
}
