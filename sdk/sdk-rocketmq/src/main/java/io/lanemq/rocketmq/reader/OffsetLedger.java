package io.lanemq.rocketmq.reader;

import java.util.OptionalLong;

/**
 * What a {@link QueueReader} needs from the bookkeeping of one queue's consumed offsets: the offset
 * that is safe to commit, and the end of this reader's ownership of the queue. How an offset becomes
 * unfinished and finished is the policy's business (the consumer proxy: fetched, then acked; the
 * delay server: read, then settled by the id its record holds), so it is not part of this contract.
 *
 * <p>Implementations are called from the reader's poll thread (commit), RocketMQ's rebalance thread
 * (revoke) and the policy's threads: they must be thread-safe.
 */
public interface OffsetLedger {

    /**
     * The next offset to consume that is safe to commit (RocketMQ's committed offset is the next one
     * to read), never above an offset that is not finished; empty when there is nothing to commit.
     * The reader commits what this returns at once, so an implementation may remember it as committed.
     */
    OptionalLong committableOffset();

    /**
     * The queue was taken away by a rebalance: its new owner reads on from what was committed, so
     * from now on {@link #committableOffset()} is empty for good.
     */
    void revoke();
}
