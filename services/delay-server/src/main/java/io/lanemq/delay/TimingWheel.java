package io.lanemq.delay;

import java.util.List;

/**
 * A hierarchical timing wheel with one-millisecond ticks (Varghese and Lauck's scheme, as in the
 * Linux kernel and Caffeine's {@code TimerWheel}). Hand-written on purpose: precise delivery of
 * the near-term buckets is the product, and its cost has to stay O(1) per entry and bounded per
 * advance however far the clock jumps.
 *
 * <p>Seven levels of 64 slots; level {@code i} slot spans {@code 64^i} ms, so the wheel holds any
 * delay (level 6 alone spans 142 years). An entry goes to the lowest level whose slot index
 * differs from now by 1..63 ticks; advancing visits, per level, only the slots whose tick has
 * passed (at most 64), fires entries now due and re-files the rest one level down. A per-level
 * occupancy bitmask finds the next deadline in a few instructions.
 *
 * <p>In practice it holds only records of the loaded near-term buckets plus retries: buckets
 * further out stay on disk. Not thread-safe: owned by the wheel thread.
 */
final class TimingWheel {

    private static final int LEVELS = 7;
    private static final int BITS = 6;
    private static final int SLOTS = 1 << BITS;
    private static final int MASK = SLOTS - 1;

    private final WheelEntry[][] heads = new WheelEntry[LEVELS][SLOTS];
    private final long[] occupied = new long[LEVELS];
    private long now;
    private int size;

    TimingWheel(long nowMillis) {
        this.now = nowMillis;
    }

    long now() {
        return now;
    }

    int size() {
        return size;
    }

    /** Files {@code e}; if it is already due, adds it to {@code due} instead. */
    void add(WheelEntry e, List<WheelEntry> due) {
        if (e.fireAt <= now) {
            due.add(e);
            return;
        }
        for (int level = 0; level < LEVELS; level++) {
            int shift = level * BITS;
            long ticks = (e.fireAt >>> shift) - (now >>> shift);
            if (ticks < SLOTS) {
                int slot = (int) ((e.fireAt >>> shift) & MASK);
                e.next = heads[level][slot];
                heads[level][slot] = e;
                occupied[level] |= 1L << slot;
                size++;
                return;
            }
        }
        throw new IllegalArgumentException("fire time " + e.fireAt + " beyond the wheel's range from " + now);
    }

    /** Moves time to {@code to} and adds every entry due by then to {@code due}, in no particular order. */
    void advance(long to, List<WheelEntry> due) {
        if (to <= now) {
            return;
        }
        long from = now;
        now = to;
        for (int level = 0; level < LEVELS; level++) {
            int shift = level * BITS;
            long prevTick = from >>> shift;
            long currTick = to >>> shift;
            if (currTick == prevTick) {
                break;
            }
            long passed = Math.min(currTick - prevTick, SLOTS);
            for (long t = 1; t <= passed; t++) {
                int slot = (int) ((prevTick + t) & MASK);
                if ((occupied[level] & (1L << slot)) != 0) {
                    drain(level, slot, due);
                }
            }
        }
    }

    private void drain(int level, int slot, List<WheelEntry> due) {
        WheelEntry e = heads[level][slot];
        heads[level][slot] = null;
        occupied[level] &= ~(1L << slot);
        while (e != null) {
            WheelEntry next = e.next;
            e.next = null;
            size--;
            add(e, due);
            e = next;
        }
    }

    /**
     * The earliest time at which {@link #advance} has work: exact for entries in level 0, the
     * start of the slot for higher levels (where they cascade down), {@code Long.MAX_VALUE} if empty.
     */
    long nextDeadline() {
        long best = Long.MAX_VALUE;
        for (int level = 0; level < LEVELS; level++) {
            long mask = occupied[level];
            if (mask == 0) {
                continue;
            }
            int shift = level * BITS;
            long nowTick = now >>> shift;
            int cur = (int) (nowTick & MASK);
            // Slots after the current one, in wheel order: rotate so bit 0 is the slot after now.
            long rotated = Long.rotateRight(mask, (cur + 1) & MASK);
            int ahead = Long.numberOfTrailingZeros(rotated) + 1;
            long tick = nowTick + ahead;
            best = Math.min(best, tick << shift);
        }
        return best;
    }
}
