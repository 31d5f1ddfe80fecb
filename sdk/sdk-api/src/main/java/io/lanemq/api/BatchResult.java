package io.lanemq.api;

import java.util.Arrays;
import java.util.BitSet;

/**
 * What became of a batch given to a {@link BatchMessageListener}: which of its messages are done and which are
 * delivered again later (each with its own attempt count and, after its last attempt, the dead-letter topic).
 * Immutable.
 */
public final class BatchResult {
    private static final BatchResult SUCCESS = new BatchResult(Integer.MAX_VALUE, new BitSet());
    private static final BatchResult RETRY_ALL = new BatchResult(0, new BitSet());

    /** The first index from which every message is delivered again; {@code Integer.MAX_VALUE}: none. */
    private final int retryFrom;
    /** Single indexes delivered again, below {@code retryFrom}. */
    private final BitSet retried;

    private BatchResult(int retryFrom, BitSet retried) {
        this.retryFrom = retryFrom;
        this.retried = retried;
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
        return index == 0 ? RETRY_ALL : new BatchResult(index, new BitSet());
    }

    /** The messages at these indexes are delivered again; all others are done. */
    public static BatchResult retryOnly(int... indexes) {
        BitSet retried = new BitSet();
        for (int index : indexes) {
            if (index < 0) {
                throw new IllegalArgumentException("retryOnly indexes must be >= 0, were " + Arrays.toString(indexes));
            }
            retried.set(index);
        }
        return retried.isEmpty() ? SUCCESS : new BatchResult(Integer.MAX_VALUE, retried);
    }

    /** The outcome of the message at {@code index} in its batch. */
    public ConsumeResult resultOf(int index) {
        return index < retryFrom && !retried.get(index) ? ConsumeResult.SUCCESS : ConsumeResult.RETRY_LATER;
    }

    @Override
    public String toString() {
        if (this == SUCCESS) {
            return "BatchResult[success]";
        }
        return "BatchResult[" + (retried.isEmpty() ? "" : "retryOnly=" + retried)
                + (retryFrom == Integer.MAX_VALUE ? "" : "retryFrom=" + retryFrom) + "]";
    }
}
