package io.lanemq.rocketmq.reader;

import io.lanemq.rocketmq.FetchedMessage;
import io.lanemq.rocketmq.QueueRef;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a service does with what its {@link QueueReader} reads: the reader fetches, commits and
 * revokes; the policy decides when to fetch, what a batch means and what a lost queue means.
 *
 * @param <L> the service's ledger of one queue
 */
public interface ReadPolicy<L extends OffsetLedger> {

    /**
     * On the poll thread before each poll: false skips this poll (the reader commits and comes back).
     * May wait, bounded by about the reader's poll timeout, e.g. for room in flight.
     */
    default boolean beforePoll() throws InterruptedException {
        return true;
    }

    /**
     * On the poll thread: a non-empty batch, in each queue's offset order. The policy records its
     * offsets in the queues' ledgers ({@link QueueReader#ledger}) before it returns: the reader may
     * commit right after. A batch not recorded is read again after a restart or by the next owner.
     */
    void onBatch(List<FetchedMessage> batch) throws InterruptedException;

    /**
     * On RocketMQ's rebalance thread, after {@code revoked} (queues of {@code topic} taken away, their
     * ledgers already revoked and forgotten by the reader) and with {@code mine} the queues this reader
     * now holds.
     */
    default void queuesChanged(String topic, Set<QueueRef> all, Set<QueueRef> mine,
            Map<QueueRef, L> revoked) {
    }

    /** A commit failed (the reader logged it and retries at the next commit): for a metric. */
    default void commitFailed(RuntimeException failure) {
    }
}
