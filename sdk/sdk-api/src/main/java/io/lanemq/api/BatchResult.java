package io.lanemq.api;

import java.util.Arrays;
import java.util.BitSet;

/**
 * What became of a batch given to a {@link BatchMessageListener}: which of its messages are done and which are
 * delivered again later (each with its own attempt count and, after its last attempt, the dead-letter topic), and
 * which go to the dead-letter topic at once.
 * Immutable.
 */
public final class BatchResult {
    private static final BatchResult SUCCESS = new BatchResult(Integer.MAX_VALUE, new BitSet(), new BitSet());
    private static final BatchResult RETRY_ALL = new BatchResult(0, new BitSet(), new BitSet());

    /** The first index from which every message is delivered again; {@code Integer.MAX_VALUE}: none. */
    private final int retryFrom;
    /** Single indexes delivered again, below {@code retryFrom}. */
    private final BitSet retried;
    /** Indexes sent to the dead-letter topic at once, whatever the two fields above say. */
    private final BitSet deadLettered;

    private BatchResult(int retryFrom, BitSet retried, BitSet deadLettered) {
        this.retryFrom = retryFrom;
        this.retried = retried;
        this.deadLettered = deadLettered;
    }

    /** Every message of the batch is done. */
    public static BatchResult success() {
        return SUCCESS;
    }

    /** No message of the batch is done: each is delivered again later. */
    public static BatchResult retryAll() {
        return RETRY_ALL;
    }

    /**
     * The messages before {@code index} are done, the one at {@code index} and those after it are delivered again
     * (a bulk write that stopped at a row). An index at or past the batch's end means every message is done.
     */
    public static BatchResult retryFrom(int index) {
        if (index < 0) {
            throw new IllegalArgumentException("retryFrom index must be >= 0, was " + index);
        }
        return index == 0 ? RETRY_ALL : new BatchResult(index, new BitSet(), new BitSet());
    }

    /** The messages at these indexes are delivered again; all others are done. */
    public static BatchResult retryOnly(int... indexes) {
        BitSet retried = indexes("retryOnly", indexes);
        return retried.isEmpty() ? SUCCESS : new BatchResult(Integer.MAX_VALUE, retried, new BitSet());
    }

    /**
     * The messages at these indexes go to the dead-letter topic at once (see {@link ConsumeResult#DEAD_LETTER}); all
     * others are done.
     */
    public static BatchResult deadLetterOnly(int... indexes) {
        return SUCCESS.withDeadLetters(indexes);
    }

    /**
     * This result, except that the messages at these indexes go to the dead-letter topic at once, whatever this
     * result said of them: {@code BatchResult.retryFrom(7).withDeadLetters(3)} is done with 0-2 and 4-6, dead-letters
     * 3 and retries the rest.
     */
    public BatchResult withDeadLetters(int... indexes) {
        BitSet dead = indexes("withDeadLetters", indexes);
        dead.or(deadLettered);
        return new BatchResult(retryFrom, retried, dead);
    }

    /** The outcome of the message at {@code index} in its batch. */
    public ConsumeResult resultOf(int index) {
        if (deadLettered.get(index)) {
            return ConsumeResult.DEAD_LETTER;
        }
        return index < retryFrom && !retried.get(index) ? ConsumeResult.SUCCESS : ConsumeResult.RETRY_LATER;
    }

    private static BitSet indexes(String method, int... indexes) {
        BitSet set = new BitSet();
        for (int index : indexes) {
            if (index < 0) {
                throw new IllegalArgumentException(method + " indexes must be >= 0, were " + Arrays.toString(indexes));
            }
            set.set(index);
        }
        return set;
    }

    @Override
    public String toString() {
        if (this == SUCCESS) {
            return "BatchResult[success]";
        }
        return "BatchResult[" + (retried.isEmpty() ? "" : "retryOnly=" + retried)
                + (retryFrom == Integer.MAX_VALUE ? "" : "retryFrom=" + retryFrom)
                + (deadLettered.isEmpty() ? "" : "deadLetter=" + deadLettered) + "]";
    }
}
