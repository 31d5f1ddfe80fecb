package io.lanemq.core.internal.consume.listener;

import io.lanemq.api.BatchMessageListener;
import io.lanemq.api.BatchResult;
import io.lanemq.api.Batching;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.MessageContext;
import io.lanemq.api.MessageListener;
import io.lanemq.api.ReceivedMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link BatchMessageListener} seen as a per-message {@link MessageListener}, so batches ride on every consumption
 * path unchanged (DIRECT, PROXY, lane forwarding, deduplication, per-message acks and dead-lettering).
 *
 * <p>Each listener thread brings one message and waits for its batch's outcome. The first message of a batch makes its
 * thread the batch's leader: it waits up to {@code maxWait} for the batch to fill. The thread whose message fills the
 * batch runs the listener at once; otherwise the leader closes the batch when its wait ends and runs it. Closing is
 * decided under one lock, so exactly one thread runs each batch and every waiting thread gets an outcome. Batches are
 * kept apart per {@link MessageContext} (lane, stress mark): the runner is already inside that context.
 */
public final class GatheringListener implements MessageListener {
    private static final Logger log = LoggerFactory.getLogger(GatheringListener.class);

    private final BatchMessageListener listener;
    private final int maxMessages;
    private final long maxWaitNanos;
    /** The batch still taking messages, per context; guarded by {@code this}. */
    private final Map<MessageContext, Batch> open = new HashMap<>();

    public GatheringListener(BatchMessageListener listener, Batching batching) {
        this.listener = listener;
        this.maxMessages = batching.maxMessages();
        this.maxWaitNanos = batching.maxWait().toNanos();
    }

    @Override
    public ConsumeResult consume(ReceivedMessage message) {
        MessageContext context = message.context();
        Batch batch;
        int index;
        boolean filled;
        synchronized (this) {
            batch = open.computeIfAbsent(context, c -> new Batch());
            index = batch.messages.size();
            batch.messages.add(message);
            filled = batch.messages.size() == maxMessages;
            if (filled) {
                open.remove(context);
            }
        }
        if (filled) {
            batch.closed.countDown();
            return batch.run(listener, index);
        }
        if (index == 0 && !batch.awaitClosed(maxWaitNanos) && closeIfOpen(context, batch)) {
            return batch.run(listener, index);
        }
        return batch.outcome(index);
    }

    /** True when the batch was still open, and this call closed it. */
    private synchronized boolean closeIfOpen(MessageContext context, Batch batch) {
        if (!open.remove(context, batch)) {
            return false;
        }
        batch.closed.countDown();
        return true;
    }

    @Override
    public String toString() {
        return listener.toString();
    }

    private static final class Batch {
        /** Written under the gathering listener's lock while open; read by the runner after it closed. */
        private final List<ReceivedMessage> messages = new ArrayList<>();
        private final CountDownLatch closed = new CountDownLatch(1);
        private final CountDownLatch done = new CountDownLatch(1);
        /** Set before {@code done} opens; null: the listener failed and every message is retried. */
        private volatile BatchResult result;

        boolean awaitClosed(long nanos) {
            try {
                return closed.await(nanos, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        ConsumeResult run(BatchMessageListener listener, int index) {
            try {
                BatchResult answer = listener.consume(List.copyOf(messages));
                if (answer == null) {
                    log.warn("batch listener {} returned null for a batch of {}; retrying them later", listener,
                            messages.size());
                }
                result = answer;
            } finally {
                // An exception leaves result null: the others retry, and this thread's caller logs it once.
                done.countDown();
            }
            return result == null ? ConsumeResult.RETRY_LATER : result.resultOf(index);
        }

        ConsumeResult outcome(int index) {
            try {
                done.await();
            } catch (InterruptedException e) {
                // The consumer is stopping: this message is not settled here and comes again.
                Thread.currentThread().interrupt();
                return ConsumeResult.RETRY_LATER;
            }
            BatchResult answer = result;
            return answer == null ? ConsumeResult.RETRY_LATER : answer.resultOf(index);
        }
    }
}
