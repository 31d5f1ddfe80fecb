package io.lanemq.delay;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * The in-memory state of each record of a loaded segment, one byte per ordinal, changed by
 * compare-and-set. Lock-free so that the wheel thread never waits for a thread holding the
 * segment's lock across a write syscall (which the kernel may stall for writeback).
 *
 * <p>Grows in fixed chunks, never by copying the bytes, so a state set during growth is not
 * lost. Growth is done by one thread at a time (under the segment's lock); reads and CAS by any.
 */
final class StateTable {

    private static final int CHUNK_BITS = 12;
    private static final int CHUNK = 1 << CHUNK_BITS;
    private static final VarHandle BYTES = MethodHandles.arrayElementVarHandle(byte[].class);

    private volatile byte[][] chunks;

    /** Starts from the persisted states (the mark file), index = ordinal. */
    StateTable(byte[] initial) {
        byte[][] c = new byte[Math.max(1, (initial.length + CHUNK - 1) / CHUNK)][];
        for (int i = 0; i < c.length; i++) {
            c[i] = new byte[CHUNK];
            int from = i * CHUNK;
            if (from < initial.length) {
                System.arraycopy(initial, from, c[i], 0, Math.min(CHUNK, initial.length - from));
            }
        }
        chunks = c;
    }

    /** Makes room for {@code ordinal}; call with the segment's lock held. */
    void ensure(int ordinal) {
        byte[][] c = chunks;
        int needed = (ordinal >>> CHUNK_BITS) + 1;
        if (needed > c.length) {
            byte[][] grown = Arrays.copyOf(c, Math.max(needed, c.length * 2));
            for (int i = c.length; i < grown.length; i++) {
                grown[i] = new byte[CHUNK];
            }
            chunks = grown;
        }
    }

    byte get(int ordinal) {
        return (byte) BYTES.getVolatile(chunks[ordinal >>> CHUNK_BITS], ordinal & (CHUNK - 1));
    }

    void set(int ordinal, byte state) {
        BYTES.setVolatile(chunks[ordinal >>> CHUNK_BITS], ordinal & (CHUNK - 1), state);
    }

    boolean compareAndSet(int ordinal, byte expected, byte state) {
        return BYTES.compareAndSet(chunks[ordinal >>> CHUNK_BITS], ordinal & (CHUNK - 1), expected, state);
    }
}
