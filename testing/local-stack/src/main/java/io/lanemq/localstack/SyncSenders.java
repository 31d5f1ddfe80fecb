package io.lanemq.localstack;

import io.lanemq.support.NamedThreads;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Producer;
import io.lanemq.api.SendResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fixed pool of threads that each send synchronously, one message after another, as an application's request
 * threads do: when sends block, the rate falls, which is what a blocked caller costs. Every send is recorded in
 * a {@link SendLog} when it starts. Starts on construction.
 */
public final class SyncSenders implements AutoCloseable {
    private final Producer producer;
    private final String logicTopic;
    private final SendLog log = new SendLog();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong sequence = new AtomicLong();
    private final List<Thread> threads = new ArrayList<>();

    public SyncSenders(Producer producer, String logicTopic, int threadCount) {
        this.producer = producer;
        this.logicTopic = logicTopic;
        for (int i = 0; i < threadCount; i++) {
            threads.add(NamedThreads.start("lanemq-sync-sender-" + logicTopic + "-" + i, this::run));
        }
    }

    public SendLog log() {
        return log;
    }

    private void run() {
        while (running.get()) {
            long seq = sequence.getAndIncrement();
            Message message = Message.builder(logicTopic).keys("k" + seq)
                    .body(("sync-" + seq).getBytes(StandardCharsets.UTF_8)).build();
            SendLog.Send send = log.started();
            try {
                SendResult result = producer.send(message);
                send.acknowledged(result.cluster(), result.messageId());
            } catch (MessagingException | RuntimeException e) {
                send.failed();
            }
        }
    }

    /** Stops starting sends and waits for the ones in flight to end. */
    @Override
    public void close() throws InterruptedException {
        running.set(false);
        for (Thread thread : threads) {
            thread.join();
        }
    }
}
