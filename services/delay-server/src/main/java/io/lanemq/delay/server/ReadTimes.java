package io.lanemq.delay.server;

/**
 * When the offsets of one queue were read, kept coarsely: one checkpoint (offset, time) each time
 * at least {@code granularityMillis} passed since the last one, instead of a time per offset.
 * Offsets are read in increasing order, so an offset was read no earlier than the checkpoint at or
 * below it and less than {@code granularityMillis} after it: {@link #readAt} is early by less than
 * that. Re-enqueueing on that estimate sends a record at most one granularity early, which is
 * harmless. An offset below the first checkpoint (a late copy) gets the first checkpoint's time.
 *
 * <p>Not thread-safe: its {@link QueueLedger} guards it. A ring of two primitive arrays; its size is
 * the number of granules between the lowest held offset and now (about {@code reenqueueAfter} /
 * granularity, 600 at the defaults).
 */
final class ReadTimes {

    private final long granularityMillis;
    private long[] offsets = new long[16];
    private long[] millis = new long[16];
    private int head;
    private int size;

    ReadTimes(long granularityMillis) {
        if (granularityMillis < 1) {
            throw new IllegalArgumentException("granularityMillis must be >= 1: " + granularityMillis);
        }
        this.granularityMillis = granularityMillis;
    }

    /** {@code offset} was read at {@code nowMillis}. */
    void read(long offset, long nowMillis) {
        if (size > 0) {
            int last = slot(size - 1);
            if (offset <= offsets[last] || nowMillis - millis[last] < granularityMillis) {
                return;
            }
        }
        if (size == offsets.length) {
            grow();
        }
        int at = slot(size);
        offsets[at] = offset;
        millis[at] = nowMillis;
        size++;
    }

    /** When {@code offset} was read, at most one granularity early; 0 when nothing was read. */
    long readAt(long offset) {
        if (size == 0) {
            return 0;
        }
        int lo = 0;
        int hi = size - 1;
        if (offset < offsets[slot(0)]) {
            return millis[slot(0)];
        }
        while (lo < hi) { // the last checkpoint with an offset <= offset
            int mid = (lo + hi + 1) >>> 1;
            if (offsets[slot(mid)] <= offset) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return millis[slot(lo)];
    }

    /** Drops checkpoints no offset at or above {@code lowest} needs (keeps the one covering it). */
    void forgetBelow(long lowest) {
        while (size > 1 && offsets[slot(1)] <= lowest) {
            head = slot(1);
            size--;
        }
    }

    /** The checkpoints' offsets, oldest first (a copy). */
    long[] offsets() {
        long[] out = new long[size];
        for (int i = 0; i < size; i++) {
            out[i] = offsets[slot(i)];
        }
        return out;
    }

    /** The checkpoints' times, in the order of {@link #offsets()} (a copy). */
    long[] millis() {
        long[] out = new long[size];
        for (int i = 0; i < size; i++) {
            out[i] = millis[slot(i)];
        }
        return out;
    }

    int size() {
        return size;
    }

    long estimatedBytes() {
        return 2L * 16 + 16L * offsets.length + 32;
    }

    private int slot(int i) {
        return (head + i) % offsets.length;
    }

    private void grow() {
        long[] o = new long[offsets.length * 2];
        long[] m = new long[offsets.length * 2];
        for (int i = 0; i < size; i++) {
            o[i] = offsets[slot(i)];
            m[i] = millis[slot(i)];
        }
        offsets = o;
        millis = m;
        head = 0;
    }
}
